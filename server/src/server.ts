import './heap-growth.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type DemoPlant, startAppDemo } from './demo/index.ts';
import { prettyLogStream } from './log-format.ts';
import { shutdownOnSignals } from './modules/ops/index.ts';
import { type FirstStartAdmin, firstStartBanner } from './modules/users/index.ts';
import { yieldToMainThread } from './thread-priority.ts';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const config = (() => {
  try {
    return loadConfig(process.env);
  } catch (error) {
    return fail(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
  }
})();

// The generated password is shown once, as the last thing of the start output (after the demo
// plant's start lines), or before the error when the start fails after creating the account.
let firstStart: FirstStartAdmin | undefined;
const showFirstStart = () => {
  if (firstStart) console.info(`\n${firstStartBanner(firstStart)}\n`);
};

const app = await buildApp(config, {
  onFirstStartAdmin: (admin) => {
    firstStart = admin;
  },
  // A person at a terminal reads lines; a file or a log collector gets pino's JSON.
  logStream: process.stdout.isTTY ? prettyLogStream(process.stdout) : undefined,
}).catch((error: unknown) => {
  showFirstStart();
  const message = error instanceof Error ? error.message : String(error);
  // The MQTT broker listens while the app is built; a local Mosquitto on 1883 is a common clash.
  const hint = message.includes('EADDRINUSE')
    ? ' — another program uses that port: choose another with PORT or MQTT_PORT (MQTT_PORT=0 turns the built-in broker off)'
    : '';
  return fail(`Kilowatch could not start: ${message}${hint}`);
});

yieldToMainThread(config.ops.threadNice, (error) =>
  app.log.warn(
    { err: error },
    'THREAD_NICE: the threads beside the main one could not be given a lower priority; they share the cores evenly with it',
  ),
);

let demo: DemoPlant | undefined;

shutdownOnSignals({
  // The demo plant's devices disconnect first, so the broker does not see them drop.
  close: () => Promise.resolve(demo?.stop()).then(() => app.close()),
  onSignal: () => app.services.ops.readiness.drain(),
  timeoutMs: config.ops.shutdownTimeoutMs,
  log: app.log,
});

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  await app.close();
  showFirstStart();
  fail(`Kilowatch could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
}

console.info(`Kilowatch listening on http://localhost:${config.port}`);
if (config.simulator.enabled) {
  const { things, regions, metricConfigs, alarms, diagrams, dashboard } = app.services;
  demo = await startAppDemo(app, config, {
    things,
    regions,
    saveConfigs: (patch) => metricConfigs.saveConfigs(patch),
    alarms,
    diagrams,
    dashboard,
  });
}

if (firstStart) {
  showFirstStart();
  console.info(
    `Open http://localhost:${config.port} and log in as ${firstStart.username} (password in the box above).`,
  );
} else {
  console.info(
    'Log in with an existing account (the first start printed the admin password). Forgot it? ' +
      'Stop the server and run: npm run user:password -- admin --password NewPass123',
  );
}
