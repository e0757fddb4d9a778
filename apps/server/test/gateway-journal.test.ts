import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageJournal } from '../src/modules/usage/journal';

const call = (n: number) => ({
  callerAccountId: `caller-${n}`,
  keyId: `key-${n}`,
  endpointId: `endpoint-${n}`,
  providerAccountId: `provider-${n}`,
});
const ended = (status: number) => ({
  status,
  latencyMs: 3,
  promptTokens: 5,
  completionTokens: null,
  tokensEstimated: true,
  streamed: status === 201,
  errorCode: status === 502 ? 'upstream_unreachable' : null,
  attempts: 1,
  cacheHit: false,
  createdAt: new Date(Date.UTC(2026, 0, 1)),
});

describe('usage journal', () => {
  it('writes what a callback collected after the Immediates that callback queued (undici sends a request from one)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    const file = path.join(dir, readdirSync(dir)[0]!);
    const seen = await new Promise<string>((resolve) => {
      journal.start(call(1), 1_000);
      // As undici does when it reuses a kept-alive socket: the request goes out from an Immediate.
      setImmediate(() => resolve(readFileSync(file, 'utf8')));
    });
    expect(seen).toBe('');
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(file, 'utf8')).toMatch(/^S\t1\tcaller-1\t/);
    journal.close(false);
  });

  it("writes a call's start line before its answer goes out, and nothing more once it is written", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    const file = path.join(dir, readdirSync(dir)[0]!);
    const one = journal.start(call(1), 1_000);
    expect(readFileSync(file, 'utf8')).toBe(''); // collected for the turn's single write
    journal.ensureStarted(one);
    expect(readFileSync(file, 'utf8')).toMatch(/^S\t1\tcaller-1\t/);
    // Its line is out: another call's collected lines wait for the turn's write.
    const two = journal.start(call(2), 2_000);
    journal.end(one, ended(200));
    journal.ensureStarted(one);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(2);
    journal.ensureStarted(two);
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.slice(0, 3)),
    ).toEqual(['S\t1', 'S\t2', 'E\t1', '']);
    journal.close(false);
  });

  it('gives back every call of a run that died: ended ones as they ended, in-flight ones as 499, each once', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    const one = journal.start(call(1), 1_000);
    const two = journal.start(call(2), 2_000);
    journal.end(one, ended(200));
    const rotated = journal.rotate();
    const three = journal.start(call(3), 3_000);
    journal.end(two, ended(201));
    journal.start(call(4), 4_000);
    journal.end(three, ended(502));
    journal.sync();
    // The process dies here: nothing is closed. The first segment was never committed either.
    const segments = UsageJournal.recover(dir);
    expect(segments.map((segment) => segment.name)).toEqual([rotated, expect.any(String)]);
    const rows = segments.flatMap((segment) => segment.rows);
    expect(rows.map((row) => [row.callerAccountId, row.status]).sort()).toEqual([
      ['caller-1', 200],
      ['caller-2', 201],
      ['caller-3', 502],
      ['caller-4', 499],
    ]);
    expect(rows.find((row) => row.status === 200)).toMatchObject({
      keyId: 'key-1',
      endpointId: 'endpoint-1',
      providerAccountId: 'provider-1',
      promptTokens: 5,
      completionTokens: null,
      tokensEstimated: true,
      streamed: false,
      errorCode: null,
    });
    expect(rows.find((row) => row.status === 201)).toMatchObject({ streamed: true, errorCode: null });
    expect(rows.find((row) => row.status === 502)).toMatchObject({ errorCode: 'upstream_unreachable' });
    expect(rows.find((row) => row.status === 499)).toMatchObject({
      streamed: false,
      errorCode: 'unfinished',
    });
    expect(rows.find((row) => row.status === 499)!.createdAt.getTime()).toBe(4_000);
  });

  it("keeps an MCP tool call's tool and bytes through a kill, free or priced (issue 41)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    const free = journal.start(call(1), 1_000);
    const priced = journal.start(call(2), 2_000);
    const chat = journal.start(call(3), 3_000);
    journal.end(free, { ...ended(200), errorCode: 'tool_error', tool: 'docs.search', bytes: 321 });
    const price = { per_call: 20_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };
    journal.end(priced, { ...ended(200), price, costCapPicos: 7, tool: 'fail', bytes: 12 });
    journal.end(chat, { ...ended(200), price });
    journal.sync();
    const rows = UsageJournal.recover(dir).flatMap((segment) => segment.rows);
    const byCaller = (id: string) => rows.find((row) => row.callerAccountId === id)!;
    expect(byCaller('caller-1')).toMatchObject({
      tool: 'docs.search',
      bytes: 321,
      errorCode: 'tool_error',
      price: null,
    });
    expect(byCaller('caller-2')).toMatchObject({ tool: 'fail', bytes: 12, price, costCapPicos: 7 });
    expect(byCaller('caller-3')).toMatchObject({ price });
    expect(byCaller('caller-3').tool).toBeUndefined();
  });

  it("keeps a call's formats and a fallback's asked endpoint through a kill; older lines still read (decision 058)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    const translated = journal.start(call(1), 1_000);
    const fellBack = journal.start(call(2), 2_000);
    const cached = journal.start(call(3), 3_000);
    const price = { per_call: 20_000, per_1m_input_tokens: 3, per_1m_output_tokens: 4 };
    journal.end(translated, { ...ended(200), clientFormat: 'anthropic', upstreamFormat: 'gemini' });
    journal.end(fellBack, {
      ...ended(200),
      price,
      costCapPicos: 9,
      endpointId: 'endpoint-answered',
      providerAccountId: 'provider-answered',
      clientFormat: 'openai',
      upstreamFormat: 'anthropic',
      requestedEndpointId: 'endpoint-2',
    });
    journal.end(cached, { ...ended(200), cacheHit: true, clientFormat: 'openai', upstreamFormat: null });
    journal.sync();
    const file = path.join(dir, readdirSync(dir)[0]!);
    // Lines written before formats: an MCP tool call's 21 fields and a priced call's 19.
    appendFileSync(
      file,
      'S\t90\tcaller-90\tkey-90\tendpoint-90\tprovider-90\t9000\n' +
        'E\t90\t200\t3\t\t\t0\t9000\t0\t\t1\t0\t\t\t\t\t\t\tu\tdocs.search\t12\n' +
        'S\t91\tcaller-91\tkey-91\tendpoint-91\tprovider-91\t9100\n' +
        'E\t91\t200\t3\t5\t6\t0\t9100\t0\t\t1\t0\t\t\t10\t20\t30\t\tu\n',
    );
    const lengths = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('E'))
      .map((line) => line.split('\t').length);
    expect(lengths).toEqual([24, 24, 24, 21, 19]);
    const rows = UsageJournal.recover(dir).flatMap((segment) => segment.rows);
    const byCaller = (id: string) => rows.find((row) => row.callerAccountId === id)!;
    expect(byCaller('caller-1')).toMatchObject({
      clientFormat: 'anthropic',
      upstreamFormat: 'gemini',
      requestedEndpointId: null,
      price: null,
    });
    expect(byCaller('caller-1').tool).toBeUndefined();
    expect(byCaller('caller-2')).toMatchObject({
      endpointId: 'endpoint-answered',
      providerAccountId: 'provider-answered',
      requestedEndpointId: 'endpoint-2',
      clientFormat: 'openai',
      upstreamFormat: 'anthropic',
      price,
      costCapPicos: 9,
    });
    expect(byCaller('caller-3')).toMatchObject({
      cacheHit: true,
      clientFormat: 'openai',
      upstreamFormat: null,
    });
    expect(byCaller('caller-90')).toMatchObject({ tool: 'docs.search', bytes: 12, price: null });
    expect(byCaller('caller-90').clientFormat).toBeUndefined();
    expect(byCaller('caller-91')).toMatchObject({
      promptTokens: 5,
      price: { per_call: 10, per_1m_input_tokens: 20, per_1m_output_tokens: 30 },
    });
    expect(byCaller('caller-91').upstreamFormat).toBeUndefined();
  });

  it('leaves no file after a clean close', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-'));
    const journal = new UsageJournal(dir);
    journal.open();
    journal.end(journal.start(call(1), 1_000), ended(200));
    journal.sync();
    journal.close(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
