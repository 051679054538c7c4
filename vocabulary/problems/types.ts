// The type problems (E-TYPE-*).

export const TYPE_PROBLEMS = {};
