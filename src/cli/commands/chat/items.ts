import type { Handlers } from '../../output/printer.js';
import { PLAIN, type Style } from '../../output/style.js';

export type ChatItem = { kind: 'chat-ended'; sessionId: string | undefined };

export function renderChatEnd(sessionId: string | undefined, style: Style = PLAIN): string {
  if (sessionId === undefined) return style.dim('No session was started.');
  return [
    `Session ${sessionId}`,
    style.dim(`  Continue it:  agents chat ${sessionId}`),
    style.dim(`  Follow it:    agents tail ${sessionId}`),
  ].join('\n');
}

export const print: Handlers<ChatItem> = {
  'chat-ended'(p, { sessionId }) {
    p.ctx.log.info(renderChatEnd(sessionId, p.ctx.styleErr));
  },
};
