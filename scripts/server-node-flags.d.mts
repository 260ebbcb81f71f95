/** The flags node runs the server with (scripts/server-node-flags.mjs says why each). */
export declare const SERVER_NODE_FLAGS: readonly string[];
/** The environment variables the server is started with beside the operator's (scripts/server-node-flags.mjs says why). */
export declare const SERVER_NODE_ENV: Readonly<Record<string, string>>;
