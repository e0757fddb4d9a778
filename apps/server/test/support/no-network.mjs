// Preloaded (`node --import`) into a tool that must work offline (redocly in openapi-lint.test.ts):
// any outgoing connection or name lookup is refused and reported on stderr, so the test can
// assert that the tool never tried to reach the network (telemetry, update checks, remote $ref).
import dns from 'node:dns';
import net from 'node:net';

const report = (what) => {
  process.stderr.write(`AIR-NETWORK-ATTEMPT ${what}\n`);
  throw new Error(`network access refused in this test: ${what}`);
};

net.Socket.prototype.connect = function connect(...args) {
  const target = typeof args[0] === 'object' ? JSON.stringify(args[0]) : String(args[0]);
  return report(`connect ${target}`);
};
dns.lookup = (host) => report(`lookup ${host}`);
dns.promises.lookup = async (host) => report(`lookup ${host}`);
