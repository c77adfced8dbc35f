// Which handler a method and path go to. Path ids must be UUIDs; anything else is a 404 like an unknown id.
import { listMessages } from './list.js';
import { createSession, getArtifact, getSession, sendMessage, type Call, type Service } from './sessions.js';
import type { Reply } from './http.js';
import { UUID } from './validate.js';

type Handler = (svc: Service, call: Call) => Reply;

interface Route {
  /** The route's name in stats, e.g. '/sessions/:id/messages'. */
  name: string;
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
}

const ROUTES: Route[] = [
  { name: '/sessions', pattern: /^\/rest\/v1\/sessions$/, methods: { POST: createSession } },
  { name: '/sessions/:id', pattern: /^\/rest\/v1\/sessions\/([^/]+)$/, methods: { GET: getSession } },
  {
    name: '/sessions/:id/messages',
    pattern: /^\/rest\/v1\/sessions\/([^/]+)\/messages$/,
    methods: { GET: listMessages, POST: sendMessage },
  },
  {
    name: '/sessions/:id/threads/:tid/messages',
    pattern: /^\/rest\/v1\/sessions\/([^/]+)\/threads\/([^/]+)\/messages$/,
    methods: { GET: listMessages },
  },
  // The live service's; the spec has no artifact endpoint (the server answers it as an unknown path).
  {
    name: '/sessions/:id/artifacts/:aid',
    pattern: /^\/rest\/v1\/sessions\/([^/]+)\/artifacts\/([^/]+)$/,
    methods: { GET: getArtifact },
  },
];

/** Where a request goes; every field but `statsKey` is absent for an unknown path. */
export interface Match {
  /** e.g. 'POST /sessions', or 'GET (unknown)'. */
  statsKey: string;
  route?: Route;
  handler?: Handler;
  /** Path parameters, lower-cased. */
  params: string[];
  /** All path parameters are UUIDs. */
  idsValid: boolean;
  /** Methods the path supports (for 405's Allow). */
  allow: string[];
}

export function matchRoute(method: string, pathname: string): Match {
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const params = m.slice(1).map((p) => p.toLowerCase());
    return {
      statsKey: `${method} ${route.name}`,
      route,
      handler: route.methods[method],
      params,
      idsValid: params.every((p) => UUID.test(p)),
      allow: Object.keys(route.methods),
    };
  }
  return { statsKey: `${method} (unknown)`, params: [], idsValid: false, allow: [] };
}
