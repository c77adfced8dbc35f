import type { Handlers } from '../../output/printer.js';

export type ChatItem = { kind: 'chat-ended'; sessionId: string | undefined };

export const print: Handlers<ChatItem> = {
  'chat-ended'(p, { sessionId }) {
    const style = p.ctx.styleErr;
    if (sessionId === undefined) return p.ctx.log.info(style.dim('No session was started.'));
    const ways = [`  Continue it:  agents chat ${sessionId}`, `  Follow it:    agents tail ${sessionId}`];
    p.ctx.log.info([`Session ${sessionId}`, ...ways.map((w) => style.dim(w))].join('\n'));
  },
};
