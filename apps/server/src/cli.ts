import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from './config';
import type { TCliCommand } from './cli/command';
import { isSourceFile, SOURCE_EXT } from './lib/source-ext';

/**
 * `npm run cli -- <command> [args]`. Each command is one file `src/cli/<name>.ts` default-exporting
 * a TCliCommand; the file name is the command name. Adding a command touches nothing else.
 */
const CLI_DIR = path.join(import.meta.dirname, 'cli');

async function loadCommands(): Promise<Map<string, TCliCommand>> {
  const commands = new Map<string, TCliCommand>();
  for (const file of readdirSync(CLI_DIR).sort()) {
    if (!isSourceFile(file) || file === `command${SOURCE_EXT}`) continue;
    const mod = (await import(pathToFileURL(path.join(CLI_DIR, file)).href)) as { default?: TCliCommand };
    if (mod.default) commands.set(file.slice(0, -SOURCE_EXT.length), mod.default);
  }
  return commands;
}

async function main(argv: string[]) {
  const commands = await loadCommands();
  const [name, ...args] = argv;
  const command = name ? commands.get(name) : undefined;
  if (!command) {
    if (name && name !== 'help' && name !== '--help') console.error(`Unknown command: ${name}\n`);
    console.log('Usage: npm run cli -- <command> [args]\n\nCommands:');
    for (const [commandName, c] of commands)
      console.log(`  ${`${commandName} ${c.usage ?? ''}`.trim().padEnd(28)} ${c.description}`);
    return name && name !== 'help' && name !== '--help' ? 1 : 0;
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.lines) console.error(line);
      return 1;
    }
    throw error;
  }
  return command.run({ config, args });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
