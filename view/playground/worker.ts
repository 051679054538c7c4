// (to be built)
export {};
