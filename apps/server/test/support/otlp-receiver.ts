import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A test OTLP/HTTP traces receiver (a collector's `POST /v1/traces`), decoding the protobuf
 * export by hand from OpenTelemetry's published proto files (opentelemetry-proto:
 * collector/trace/v1, trace/v1, common/v1, resource/v1). The official SDK's exporter is what sends
 * to it in the tests, so a decoder that drifted from the wire would fail them.
 */

/** A span as exported, its attributes as plain values. */
export interface TExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  resource: Record<string, unknown>;
}

type TField = { field: number; value: bigint | Buffer };

/** One message's fields (wire types 0, 1, 2 and 5; anything else is a decoding error). */
function fields(buffer: Buffer): TField[] {
  const out: TField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error('protobuf: truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (at < buffer.length) {
    const tag = Number(varint());
    const field = tag >> 3;
    switch (tag & 7) {
      case 0:
        out.push({ field, value: varint() });
        break;
      case 1:
        out.push({ field, value: buffer.subarray(at, (at += 8)) });
        break;
      case 2: {
        const length = Number(varint());
        out.push({ field, value: buffer.subarray(at, (at += length)) });
        break;
      }
      case 5:
        out.push({ field, value: buffer.subarray(at, (at += 4)) });
        break;
      default:
        throw new Error(`protobuf: wire type ${tag & 7}`);
    }
  }
  return out;
}

const bytesOf = (value: bigint | Buffer) => value as Buffer;
const text = (value: bigint | Buffer) => bytesOf(value).toString('utf8');

/** common.v1.AnyValue: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7. */
function anyValue(buffer: Buffer): unknown {
  for (const { field, value } of fields(buffer)) {
    if (field === 1) return text(value);
    if (field === 2) return value === 1n;
    if (field === 3) return Number(BigInt.asIntN(64, value as bigint));
    if (field === 4) return bytesOf(value).readDoubleLE(0);
    if (field === 5) return fields(bytesOf(value)).map((item) => anyValue(bytesOf(item.value)));
    if (field === 6) return keyValues(fields(bytesOf(value)).map((item) => bytesOf(item.value)));
    if (field === 7) return bytesOf(value);
  }
  return null;
}

/** common.v1.KeyValue: key 1, value 2. */
function keyValues(list: Buffer[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of list) {
    let key = '';
    let value: unknown = null;
    for (const part of fields(entry)) {
      if (part.field === 1) key = text(part.value);
      if (part.field === 2) value = anyValue(bytesOf(part.value));
    }
    out[key] = value;
  }
  return out;
}

const hex = (value: bigint | Buffer) => bytesOf(value).toString('hex');

/** trace.v1.Span, with its resource's attributes. */
function span(buffer: Buffer, resource: Record<string, unknown>): TExportedSpan {
  const out: TExportedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    events: [],
    status: 0,
    resource,
  };
  const attributes: Buffer[] = [];
  for (const { field, value } of fields(buffer)) {
    if (field === 1) out.traceId = hex(value);
    else if (field === 2) out.spanId = hex(value);
    else if (field === 4) out.parentSpanId = hex(value);
    else if (field === 5) out.name = text(value);
    else if (field === 6) out.kind = Number(value);
    else if (field === 7) out.startNs = bytesOf(value).readBigUInt64LE(0);
    else if (field === 8) out.endNs = bytesOf(value).readBigUInt64LE(0);
    else if (field === 9) attributes.push(bytesOf(value));
    else if (field === 11) {
      // Event: time 1, name 2, attributes 3.
      let name = '';
      const eventAttributes: Buffer[] = [];
      for (const part of fields(bytesOf(value))) {
        if (part.field === 2) name = text(part.value);
        if (part.field === 3) eventAttributes.push(bytesOf(part.value));
      }
      out.events.push({ name, attributes: keyValues(eventAttributes) });
    } else if (field === 15) {
      // Status: message 2, code 3.
      for (const part of fields(bytesOf(value))) if (part.field === 3) out.status = Number(part.value);
    }
  }
  out.attributes = keyValues(attributes);
  return out;
}

/** collector.trace.v1.ExportTraceServiceRequest → its spans. */
export function decodeTraceExport(body: Buffer): TExportedSpan[] {
  const spans: TExportedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.field !== 1) continue;
    let resource: Record<string, unknown> = {};
    const scopes: Buffer[] = [];
    for (const part of fields(bytesOf(resourceSpans.value))) {
      if (part.field === 1)
        resource = keyValues(
          fields(bytesOf(part.value))
            .filter((attribute) => attribute.field === 1)
            .map((attribute) => bytesOf(attribute.value)),
        );
      if (part.field === 2) scopes.push(bytesOf(part.value));
    }
    for (const scope of scopes)
      for (const part of fields(scope)) if (part.field === 2) spans.push(span(bytesOf(part.value), resource));
  }
  return spans;
}

/** A receiver on loopback: every export's spans, the headers each export came with. */
export async function startOtlpReceiver() {
  const spans: TExportedSpan[] = [];
  const exports: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', headers: req.headers });
      try {
        spans.push(...decodeTraceExport(Buffer.concat(chunks)));
      } catch {
        res.writeHead(400).end();
        return;
      }
      // An empty ExportTraceServiceResponse: everything accepted.
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    exports,
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

export type TOtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
