// The toolchain's version: part of every cache key, manifest and recording.
export const VERSION = "0.1.0";
