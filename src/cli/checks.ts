// The parse step's checks that commander's option parsers (options.ts) cannot make one value at a time:
// options that exclude or need each other, and the files that options name (--file can be read, --output
// and -o can be written, --agent-profile-file holds a Profile). They read no setting and send nothing, and
// run before the program's context, the command's module or any HTTP code loads, so a usage error costs
// little more than commander. The error lines are the commands' own.
import type { CreateFlags } from '../commands/create/run.js';
import type { SendFlags } from '../commands/send/run.js';
import type { ArtifactFlags } from '../commands/artifact/run.js';
import type { ChatFlags } from '../commands/chat/run.js';
import { checkAgentFlags, profileFromFlags, type AgentFlags } from '../input/agent.js';
import { checkMessageSources } from '../input/message.js';
import { checkOutputPath, checkReplyFlags, type ReplyFlags } from '../input/reply-flags.js';

/** create's options as commander parsed them. */
export interface CreateOptions extends AgentFlags, ReplyFlags {
  private?: boolean;
}

/** send's options as commander parsed them. */
export interface SendOptions extends ReplyFlags {
  agentProfile?: string;
  agentProfileFile?: string;
  yes?: boolean;
}

export function checkCreate(words: string[], opts: CreateOptions): CreateFlags {
  checkReplyFlags(opts);
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  const agent = checkAgentFlags(opts);
  checkMessageSources(words, opts.file);
  return { ...rest, ...agent };
}

export function checkSend(words: string[], opts: SendOptions): SendFlags {
  checkReplyFlags(opts);
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  const profile = profileFromFlags(opts);
  checkMessageSources(words, opts.file);
  return { ...rest, profile };
}

/** chat's options as commander parsed them. */
export interface ChatOptions extends AgentFlags {
  private?: boolean;
  yes?: boolean;
  notify?: boolean;
  turns: number;
}

export function checkChat(opts: ChatOptions): ChatFlags {
  const { agentProfile: _id, agentProfileFile: _file, ...rest } = opts;
  return { ...rest, ...checkAgentFlags(opts) };
}

/** plan and artifact: -o names a file that can be written. */
export function checkDownload(opts: ArtifactFlags): ArtifactFlags {
  if (opts.output !== undefined) checkOutputPath(opts.output, '-o');
  return opts;
}
