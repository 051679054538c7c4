// The name problems (E-NAME-*): a name that is unknown, declared twice, shadowed, or not public.

export const NAME_PROBLEMS = {};
