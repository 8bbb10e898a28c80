// gpprobe-publish (scripts/publish/publish.ts): its command line, the page it writes (the files' bytes
// as on disk, the session asked for) and what it refuses, each with a message naming the file or flag.
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { main, readArguments } from '../../scripts/publish/publish.ts';
import { encodeLink } from '../../web/src/app/share_link.ts';
import { DEFAULT_SESSION } from '../../web/src/common/state/session.ts';
import { DATA_BLOCK_MARKER } from '../../web/src/single/one_file_format.ts';

const EMB = 'web/public/demo/digits/embeddings.npy';
const META = 'web/public/demo/digits/metadata.csv';
const TEMPLATE = `<!doctype html><title>t</title>${DATA_BLOCK_MARKER}`;
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-publish-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command; its status, what it printed, and the block of the page it wrote (read by Node zlib). */
async function run(...argv: string[]) {
  const out = join(dir, 'out.html');
  rmSync(out, { force: true });
  const printed: string[] = [];
  const errors: string[] = [];
  const status = await main([...argv, '--out', out], async () => TEMPLATE, {
    log: (s) => printed.push(s),
    error: (s) => errors.push(s),
  });
  let block: { header: Record<string, unknown>; payload: Buffer } | null = null;
  if (status === 0 && existsSync(out)) {
    const html = readFileSync(out, 'utf8');
    const text = /<script type="application\/octet-stream" id="gpprobe-data">([^<]*)<\/script>/.exec(html)![1];
    const bytes = Buffer.from(text, 'base64');
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('GPPROBE\x01');
    const length = bytes.readUInt32LE(8);
    block = {
      header: JSON.parse(bytes.subarray(12, 12 + length).toString('utf8')) as Record<string, unknown>,
      payload: inflateSync(bytes.subarray(12 + length)),
    };
  }
  return { status, printed: printed.join('\n'), error: errors.join('\n'), block };
}

describe('gpprobe-publish command line', () => {
  it('prints its help', async () => {
    expect(readArguments(['--help'])).toBe('help');
    const r = await run('--help');
    expect(r.status).toBe(0);
    for (const flag of [
      '--embeddings',
      '--metadata',
      '--concept',
      '--per-class',
      '--seed',
      '--session',
      '--link',
      '--out',
    ])
      expect(r.printed).toContain(flag);
  });

  it.each([
    [['--metadata', META], /--embeddings FILE is required/],
    [['--embeddings', EMB, '--session', 'a.json', '--link', 'http://x/#s=1'], /alternatives/],
    [
      ['--embeddings', EMB, '--concept', 'digit=1', '--session', 'a.json'],
      /--concept cannot be combined with --session/,
    ],
    [['--embeddings', EMB, '--colour', 'red'], /Unknown option '--colour'/],
    [['--embeddings', EMB, 'stray'], /positional/],
  ])('refuses %j as a usage error', async (argv, message) => {
    const r = await run(...argv);
    expect(r.status).toBe(2);
    expect(r.error).toMatch(message);
  });
});

describe('gpprobe-publish pages', () => {
  it('holds the files as they are on disk and the session asked for', async () => {
    const r = await run(
      '--embeddings',
      EMB,
      '--metadata',
      META,
      '--concept',
      'digit=3,5',
      '--per-class',
      '6',
      '--seed',
      '7',
    );
    expect(r.error).toBe('');
    expect(r.printed).toMatch(/1,797 rows × 64 dimensions \(embeddings\.npy \+ metadata\.csv\)/);
    const emb = readFileSync(EMB),
      meta = readFileSync(META);
    expect(r.block!.header).toEqual({
      format: 'gpprobe-one-file',
      version: 1,
      files: [
        { name: 'embeddings.npy', size: emb.length, role: 'main' },
        { name: 'metadata.csv', size: meta.length, role: 'main' },
      ],
      state: {
        v: 1,
        concept: { column: 'digit', kind: 'values', positives: ['3', '5'] },
        draw: { perClass: 6, seed: 7 },
      },
    });
    expect(r.block!.payload.equals(Buffer.concat([emb, meta]))).toBe(true);
  });

  it('takes the session of a session file, and of a link (#s= or parameters)', async () => {
    const session = {
      ...DEFAULT_SESSION,
      data: { kind: 'demo', id: 'digits' },
      concept: { column: 'even', kind: 'values', positives: ['1'] },
      observations: [3, 10, 200],
      epsilon: 0.25,
      strength: 3,
    };
    writeFileSync(join(dir, 'session.json'), JSON.stringify(session));
    const fromFile = await run('--embeddings', EMB, '--metadata', META, '--session', join(dir, 'session.json'));
    expect(fromFile.error).toBe('');
    expect(fromFile.block!.header.state).toEqual({
      v: 1,
      concept: session.concept,
      draw: session.draw,
      epsilon: 0.25,
      strength: 3,
      ood: { kind: 'none' },
      queries: { kind: 'all' },
      rows: [3, 10, 200],
    });
    const hash = encodeLink({
      session: { ...DEFAULT_SESSION, ...session, data: { kind: 'demo', id: 'digits' } } as typeof DEFAULT_SESSION,
      drawn: false,
      view: { tab: 'ood', colorBy: 'episteme', selected: 12 },
    });
    const fromLink = await run('--embeddings', EMB, '--metadata', META, '--link', `https://example.org/app/#${hash}`);
    expect(fromLink.error).toBe('');
    expect(fromLink.block!.header.state).toMatchObject({ rows: [3, 10, 200], epsilon: 0.25, tab: 'ood', selected: 12 });
    expect(fromLink.block!.header.state).not.toHaveProperty('data');
    const fromParams = await run(
      '--embeddings',
      EMB,
      '--metadata',
      META,
      '--link',
      'https://example.org/app/?demo=digits&concept=ge5=1&observations=1,2,30&epsilon=0.5',
    );
    expect(fromParams.error).toBe('');
    expect(fromParams.block!.header.state).toEqual({
      v: 1,
      concept: { column: 'ge5', kind: 'values', positives: ['1'] },
      epsilon: 0.5,
      rows: [1, 2, 30],
    });
  });

  it("holds a Projector config with the chosen embedding's tensor, metadata and sprite sheet", async () => {
    const at = 'tests/e2e/fixtures/projector/';
    const r = await run('--embeddings', `${at}projector_config.json`, '--embedding', 'Digits: pixels');
    expect(r.error).toBe('');
    expect(r.printed).toMatch(/300 rows × 64 dimensions/);
    const names = ['projector_config.json', 'pixels.bytes', 'metadata.tsv', 'sprite.png'];
    const files = names.map((n) => readFileSync(at + n));
    expect(r.block!.header.files).toEqual(names.map((name, i) => ({ name, size: files[i].length, role: 'main' })));
    expect(r.block!.payload.equals(Buffer.concat(files))).toBe(true);
    const remote = join(dir, 'projector_config.json');
    writeFileSync(
      remote,
      JSON.stringify({
        embeddings: [{ tensorName: 'far', tensorShape: [2, 2], tensorPath: 'https://example.org/far.bytes' }],
      }),
    );
    const far = await run('--embeddings', remote);
    expect(far.error).toMatch(/names https:\/\/example\.org\/far\.bytes, which is not beside it/);
    const none = await run('--embeddings', `${at}projector_config.json`, '--embedding', 'Nope');
    expect(none.error).toMatch(/has no embedding named “Nope” \(it has Digits: hidden layer, Digits: pixels\)/);
  });

  it.each([
    [
      ['--concept', 'colour=red'],
      /--concept's concept: the data have no column “colour” \(their columns: index, digit/,
    ],
    [['--concept', 'digit=12'], /no row has digit = 12/],
    [['--concept', 'digit'], /--concept=digit is not column=value/],
    [['--per-class', '2.5'], /--per-class=2\.5 is not a whole number/],
    [['--link', 'https://example.org/?observations=5000'], /observations include row 5000; the data have 1797 rows/],
  ])('refuses the session %j', async (argv, message) => {
    const r = await run('--embeddings', EMB, '--metadata', META, ...argv);
    expect(r.status).toBe(1);
    expect(r.error).toMatch(message);
  });

  it('refuses hostile files with the readers’ messages, naming the file', async () => {
    const npy = readFileSync(EMB);
    writeFileSync(join(dir, 'cut.npy'), npy.subarray(0, npy.length - 10));
    const cut = await run('--embeddings', join(dir, 'cut.npy'), '--metadata', META);
    expect(cut.status).toBe(1);
    expect(cut.error).toMatch(/^gpprobe-publish: cut\.npy: /);

    const nan = Buffer.from(npy);
    nan.writeFloatLE(Number.NaN, 128 + 4 * 70);
    writeFileSync(join(dir, 'nan.npy'), nan);
    const nonFinite = await run('--embeddings', join(dir, 'nan.npy'), '--metadata', META);
    expect(nonFinite.status).toBe(1);
    expect(nonFinite.error).toMatch(/nan\.npy: .*(row 1|NaN|finite)/);

    const lines = readFileSync(META, 'utf8').trim().split('\n');
    writeFileSync(join(dir, 'short.csv'), lines.slice(0, 100).join('\n') + '\n');
    const shape = await run('--embeddings', EMB, '--metadata', join(dir, 'short.csv'));
    expect(shape.status).toBe(1);
    expect(shape.error).toMatch(/short\.csv: has 99 rows.*embeddings\.npy has 1797/);

    const missing = await run('--embeddings', join(dir, 'nowhere.npy'));
    expect(missing.error).toMatch(/nowhere\.npy: cannot be read \(ENOENT\)/);
  });

  it('refuses more than 256 MiB before reading it', async () => {
    const big = join(dir, 'big.npy');
    writeFileSync(big, '');
    truncateSync(big, 256 * 2 ** 20 + 1); // sparse: nothing is written or read
    const r = await run('--embeddings', big);
    expect(r.status).toBe(1);
    expect(r.error).toMatch(/the files hold 268,435,457 bytes .* at most 256 MiB \(268,435,456 bytes/);
    rmSync(big);
  });
});
