// The `environment` module: variables of the process, read through the gateway.

import { call } from "../gateway.js";
import { optional } from "../prelude.js";

export const get = (name: string): Promise<unknown> => call("std.environment.get", { name }, () => optional(process.env[name]));
