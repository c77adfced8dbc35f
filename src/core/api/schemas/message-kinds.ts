// What a message is and who wrote it: plain values, apart from the Message's schema, because the first
// file reaches them (a command's options name them) and must not load the schema library.

/** What a message is: the agent's progress, the turn's final reply, or a tool call. */
export type MessageType = 'message' | 'final_message' | 'tool_call';
export const MESSAGE_TYPES: readonly MessageType[] = ['message', 'final_message', 'tool_call'];

/** Who wrote a message. */
export type Role = 'user' | 'assistant';
export const ROLES: readonly Role[] = ['user', 'assistant'];
