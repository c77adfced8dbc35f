// The Action's build: @actions/core imports @actions/http-client (for getIDToken's OIDC client, which
// imports a second undici, v6, beside ours) and @actions/exec (for its `platform` helpers) at its top,
// and neither package says it has no side effects, so esbuild keeps all of both though the Action calls
// neither: 571 KB more in dist-action/index.mjs, and undici 6 evaluated before the first log line (figures:
// docs/ci.md#the-toolkit-actionscore). This plugin says for them what their package.json does not
// (`"sideEffects": false`): importing them runs nothing, so what nothing calls is left out. Whatever a
// toolkit call does use of them stays. Upstream: https://github.com/actions/toolkit/issues/1697.
const UNUSED = /^@actions\/(http-client|exec)(\/|$)/;

/** @type {import('esbuild').Plugin} */
export const toolkitSideEffects = {
  name: 'toolkit-side-effects',
  setup(build) {
    build.onResolve({ filter: UNUSED }, async (args) => {
      if (args.pluginData === toolkitSideEffects) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: toolkitSideEffects,
      });
      return found.errors.length > 0 ? { errors: found.errors } : { path: found.path, sideEffects: false };
    });
  },
};
