// The library's types: tsc's declarations of src/sdk/index.ts rolled up by API Extractor into one
// dist/index.d.ts, and the API report (what the entry exports, in full) written beside the build, for
// test/process/library.test.ts to hold against the committed api/agents-cli.api.md. `npm run api` writes
// that file too (the report is committed: a change of the public API shows in review).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = resolve(import.meta.dirname, '..');
export const REPORT = 'agents-cli.api.md';

const warnings = [];

/**
 * Declarations into `<work>/dts`, then API Extractor: `<dist>/index.d.ts` and the report in `<work>/report`.
 * Returns the report's path; throws on an error of either tool.
 */
export function libraryTypes(dist, work) {
  rmSync(work, { recursive: true, force: true });
  warnings.length = 0;
  const dts = join(work, 'dts');
  const tsc = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.sdk.json'),
      '--declarationDir',
      dts,
      // Emitted without a second type check of src/ (npm run typecheck checks the same files): the same
      // declarations, byte for byte, in under half the CPU (2.5 s against 5.8 s here).
      '--noCheck',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (tsc.status !== 0) throw new Error(`tsc (declarations) failed:\n${tsc.stdout}${tsc.stderr}`);
  const reportFolder = join(work, 'report');
  mkdirSync(reportFolder, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: join(dts, 'sdk', 'index.d.ts'),
      compiler: { tsconfigFilePath: join(ROOT, 'tsconfig.sdk.json') },
      apiReport: { enabled: true, reportFileName: REPORT, reportFolder, reportTempFolder: reportFolder },
      docModel: { enabled: false },
      dtsRollup: { enabled: true, untrimmedFilePath: join(dist, 'index.d.ts') },
      tsdocMetadata: { enabled: false },
      messages: {
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          // The report is compared by the test, not by the build.
          'ae-missing-release-tag': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'warning' } },
      },
    },
    configObjectFullPath: join(ROOT, 'api-extractor.json'),
    packageJsonFullPath: join(ROOT, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: true,
    showVerboseMessages: false,
    // Every message is ours to report: API Extractor would print its notices ("Analysis will use the
    // bundled TypeScript version …") on stdout, which is `npm pack --json`'s (prepack builds).
    messageCallback: (m) => {
      m.handled = true;
      if (m.logLevel === 'warning' || m.logLevel === 'error') {
        warnings.push(`${m.sourceFilePath ?? ''}:${m.sourceFileLine ?? ''} ${m.messageId}: ${m.text}`);
      }
    },
  });
  if (!result.succeeded || warnings.length > 0) {
    throw new Error(`API Extractor:\n${warnings.join('\n')}`);
  }
  return join(reportFolder, REPORT);
}

// `node scripts/library-types.mjs [--out DIST] [--update]`: the types of a build, and with --update the
// committed report.
if (process.argv[1] === import.meta.filename) {
  const outArg = process.argv.indexOf('--out');
  const dist = outArg === -1 ? join(ROOT, 'dist') : resolve(process.argv[outArg + 1]);
  const report = libraryTypes(dist, join(dirname(dist), `.${basename(dist)}-work`, 'api'));
  if (process.argv.includes('--update')) copyFileSync(report, join(ROOT, 'api', REPORT));
  console.log(report);
}
