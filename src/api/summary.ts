// Turns whatever a server or gateway answered into one short line: the service's `error` text when the body
// is JSON, the title of an HTML page (never the page), or the first words of anything else.

/** Collapses control characters and runs of whitespace to single spaces, then caps the length. */
export function oneLine(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a terminal
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What an error body said, reduced for a one-line message. */
export interface BodySummary {
  /** The `error` text of a JSON body. */
  serverMessage?: string;
  /** A code the body carried (`code`, `error_code`, or `error.code`), e.g. VALIDATION. */
  code?: string;
  /** A short description when there is no `error` text: `HTML page "502 Bad Gateway"`, or the text's start. */
  summary: string;
}

function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromJson(json: unknown): BodySummary | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const obj = json as Record<string, unknown>;
  let message = asText(obj.error) ?? asText(obj.message);
  let code = asText(obj.code) ?? asText(obj.error_code);
  // Some services nest it: {"error": {"message": "…", "code": "…"}}.
  if (typeof obj.error === 'object' && obj.error !== null) {
    const nested = obj.error as Record<string, unknown>;
    message ??= asText(nested.message);
    code ??= asText(nested.code);
  }
  return {
    serverMessage: message === undefined ? undefined : oneLine(message),
    code: code === undefined || !/^[A-Za-z0-9_.-]{1,40}$/.test(code) ? undefined : code,
    summary: message === undefined ? 'JSON body without an error text' : '',
  };
}

/** Summarises an error response body for a one-line message. */
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
    const clean = title === undefined ? '' : oneLine(title.replace(/<[^>]*>/g, ''), 80);
    return { summary: clean ? `HTML page "${clean}"` : 'HTML page' };
  }
  return { summary: oneLine(trimmed) };
}
