/** The flags node runs the server with (scripts/server-node-flags.mjs says why each). */
export declare const SERVER_NODE_FLAGS: readonly string[];
