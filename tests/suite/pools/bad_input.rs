//! Bad input to the pool calls, with the engine's errors (the vendors' codes are in the facade tests).
