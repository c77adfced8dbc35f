import type { SentMessage } from '../../../core/api/types.js';
import { jsonLine, type Handlers } from '../../output/printer.js';

export type SendItem = { kind: 'message-sent'; sessionId: string; sent: SentMessage; waiting: boolean };

export const print: Handlers<SendItem> = {
  'message-sent'(p, { sessionId, sent, waiting }) {
    // <session>/<thread>: what `agents wait` and --thread read (the session alone if no thread came back).
    const thread = sent.chat_thread_id;
    const ref = thread ? `${sessionId}/${thread}` : sessionId;
    if (!waiting) p.out(p.json ? jsonLine(sent) : `${ref}\n`);
  },
};
