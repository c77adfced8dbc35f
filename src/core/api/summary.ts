// Whatever a server or gateway answered as one short line: the `error` text of JSON, the title of an HTML
// page (never the page), or the first words of anything else.
import { isObject } from '../../util/json.js';
import { flatten } from '../../util/text.js';

interface BodySummary {
  /** The `error` text of a JSON body. */
  serverMessage?: string;
  /** A code the body carried (`code`, `error_code`, or `error.code`), e.g. VALIDATION. */
  code?: string;
  /** A short description when there is no `error` text: `HTML page "502 Bad Gateway"`, or the text's start. */
  summary: string;
}

/** A code a client may branch on: a short word, never text to show (the error body's contract says so too). */
export const ERROR_CODE_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;

function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromJson(json: unknown): BodySummary | undefined {
  if (!isObject(json)) return undefined;
  let message = asText(json.error) ?? asText(json.message);
  let code = asText(json.code) ?? asText(json.error_code);
  // Some services nest it: {"error": {"message": "…", "code": "…"}}.
  if (isObject(json.error)) {
    message ??= asText(json.error.message);
    code ??= asText(json.error.code);
  }
  return {
    serverMessage: message === undefined ? undefined : flatten(message),
    code: code === undefined || !ERROR_CODE_PATTERN.test(code) ? undefined : code,
    summary: message === undefined ? 'JSON body without an error text' : '',
  };
}

export function summariseBody(text: string, contentType: string | undefined): BodySummary {
  const type = (contentType ?? '').toLowerCase();
  const trimmed = text.trim();
  if (trimmed === '') return { summary: '' };
  if (type.includes('json') || trimmed.startsWith('{')) {
    try {
      const summary = fromJson(JSON.parse(trimmed));
      if (summary) return summary;
    } catch {
      // Not JSON after all: fall through to the text forms.
    }
  }
  if (type.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const clean = title === undefined ? '' : flatten(title.replace(/<[^>]*>/g, ''), 80);
    return { summary: clean ? `HTML page "${clean}"` : 'HTML page' };
  }
  return { summary: flatten(trimmed) };
}
