// Which handler a method and path go to.
import { listMessages } from './list.js';
import { createSession, getArtifact, getSession, sendMessage, type Call } from './sessions.js';
import type { Reply } from './http.js';
import type { Emulation } from './emulation.js';

interface Route {
  /** The route's name in stats, e.g. '/sessions/:id/messages'. */
  name: string;
  pattern: RegExp;
  methods: Partial<Record<string, (e: Emulation, call: Call) => Reply>>;
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

/** The route of a path and its path parameters (lower-cased); undefined for an unknown path. */
export function matchRoute(pathname: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (m) return { route, params: m.slice(1).map((p) => p.toLowerCase()) };
  }
  return undefined;
}
