/**
 * A real OBS Studio for tests: its own HOME (config, profile with the replay buffer on, a scene
 * with a colour source so there are frames to buffer), its own Xvfb display, a free port, and an
 * obs-websocket password. Stopped by PID, never by name.
 *
 * Measured with OBS 29.0.2 (obs-websocket 5.1.0) under Xvfb on a 2-core machine: the port accepts
 * about 0.5-1.7 s after start, a save reports back in about 0.3 s, a wrong password closes 4009,
 * a killed OBS closes 1006, SaveReplayBuffer with the buffer stopped answers 501.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

function findOnPath(binary: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, binary))) return join(dir, binary);
  }
  return null;
}

const obsBinary = findOnPath('obs');
const xvfbBinary = findOnPath('Xvfb');

/** True when OBS Studio and Xvfb are installed; the OBS tests use `describe.skipIf(!obsAvailable)`. */
export const obsAvailable = obsBinary !== null && xvfbBinary !== null;

export const obsUnavailableReason = obsAvailable
  ? ''
  : `OBS Studio tests SKIPPED: ${[obsBinary ? '' : '`obs`', xvfbBinary ? '' : '`Xvfb`'].filter(Boolean).join(' and ')} ` +
    'not found on PATH. Install them with: apt-get install -y --no-install-recommends obs-studio xvfb libgl1-mesa-dri';

if (!obsAvailable) {
  // CI sets this so a machine without OBS fails instead of skipping the tests that matter most.
  if (process.env.REQUIRE_OBS_STUDIO === '1')
    throw new Error(obsUnavailableReason.replace('SKIPPED', 'REQUIRED'));
  console.warn(obsUnavailableReason);
}

export interface ObsLaunchOptions {
  /** obs-websocket password (authentication is always on, as in a real setup). */
  password: string;
  /** Start with the replay buffer running (`--startreplaybuffer`), as a broadcast PC would. */
  startReplayBuffer: boolean;
}

export interface ObsStudio {
  readonly port: number;
  readonly url: string;
  /** Where OBS writes saved replays. */
  readonly replayDir: string;
  /** The running OBS process, if any. */
  readonly pid: number | undefined;
  /** Starts OBS and resolves once its WebSocket port accepts connections. One OBS at a time. */
  launch(options: ObsLaunchOptions): Promise<void>;
  /** kill -9: what a crash looks like to clients (they see close 1006). */
  crash(): Promise<void>;
  /** Asks OBS to quit (SIGTERM), and kills it if it has not gone within 10 s. */
  quit(): Promise<void>;
  /** WebSocket clients the running OBS has accepted since its launch, from its log: the server's side. */
  clientConnections(): number;
  /** WebSocket clients the running OBS has seen leave since its launch, from its log. */
  clientDisconnections(): number;
  /** Quits OBS, stops Xvfb, deletes the HOME directory. Safe to call twice. */
  dispose(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const QUIT_TIMEOUT_MS = 10_000;
const LOCK_WAIT_MS = 45_000;
const LOCK_PATH = join(tmpdir(), 'hud-automation-obs-studio.lock');
const PROFILE = 'hud-automation-test';

/** Every process this module started, killed if the test process exits without disposing. */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
});

/**
 * Prepares a HOME, an Xvfb display and a port; OBS itself starts with `launch`. Holds a lock so
 * that test files running in parallel workers never run two OBS at once (memory, 2 cores).
 */
export async function createObsStudio(): Promise<ObsStudio> {
  if (!obsBinary || !xvfbBinary) throw new Error(obsUnavailableReason);
  const obsPath = obsBinary;
  await acquireLock();
  const home = await mkdtemp(join(tmpdir(), 'hud-obs-'));
  const replayDir = join(home, 'replays');
  const logPath = join(home, 'obs.log');
  await mkdir(replayDir);
  await writeProfile(home, replayDir);

  let xvfb: ChildProcess | undefined;
  let obs: ChildProcess | undefined;
  let disposed = false;
  // The log is appended to across launches; counts start at the current launch.
  let logStart = 0;
  const logOfThisLaunch = () => readFileSafe(logPath).slice(logStart);
  const port = await freePort();
  const display = await startXvfb(xvfbBinary).then((started_) => {
    xvfb = started_.child;
    return started_.display;
  });

  const studio: ObsStudio = {
    port,
    url: `ws://127.0.0.1:${port}`,
    replayDir,
    get pid() {
      return obs?.pid;
    },

    async launch({ password, startReplayBuffer }) {
      if (obs) throw new Error(`OBS is already running (pid ${obs.pid}): one at a time`);
      await writeGlobalIni(home, port, password);
      logStart = readFileSafe(logPath).length;
      const args = ['--multi', '--disable-missing-files-check'];
      if (startReplayBuffer) args.push('--startreplaybuffer');
      const log = openSync(logPath, 'a');
      const child = spawn(obsPath, args, {
        cwd: home,
        stdio: ['ignore', log, log],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          // OBS reads its config from XDG_CONFIG_HOME when set: pin it to this HOME.
          XDG_CONFIG_HOME: join(home, '.config'),
          XDG_RUNTIME_DIR: home,
          DISPLAY: `:${display}`,
          // Keeps OBS off the network (update checks, service lists): nothing listens on port 9.
          https_proxy: 'http://127.0.0.1:9',
          http_proxy: 'http://127.0.0.1:9',
          LIBGL_ALWAYS_SOFTWARE: '1',
        },
      });
      closeSync(log);
      obs = child;
      started.add(child);
      child.once('exit', () => {
        started.delete(child);
        if (obs === child) obs = undefined;
      });
      try {
        await waitForPort(port, child, READY_TIMEOUT_MS);
      } catch (error) {
        await stopProcess(child, 'SIGKILL', QUIT_TIMEOUT_MS);
        throw new Error(`${(error as Error).message}\n--- OBS log (${logPath}) ---\n${tail(logPath)}`);
      }
    },

    async crash() {
      if (obs) await stopProcess(obs, 'SIGKILL', QUIT_TIMEOUT_MS);
    },

    async quit() {
      if (obs) await stopProcess(obs, 'SIGTERM', QUIT_TIMEOUT_MS);
    },

    clientConnections() {
      return countMatches(logOfThisLaunch(), 'New WebSocket client has connected');
    },

    clientDisconnections() {
      return countMatches(logOfThisLaunch(), '` has disconnected with code');
    },

    async dispose() {
      if (disposed) return;
      disposed = true;
      try {
        if (obs) await stopProcess(obs, 'SIGTERM', QUIT_TIMEOUT_MS);
        if (xvfb) await stopProcess(xvfb, 'SIGTERM', QUIT_TIMEOUT_MS);
        await rm(home, { recursive: true, force: true });
      } finally {
        await releaseLock();
      }
    },
  };
  return studio;
}

/** Stops one process by its PID; SIGKILL if it outlives `timeoutMs`. Resolves once it has exited. */
async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, signal);
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGKILL');
    }
  }, timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** Xvfb picks a free display itself and writes its number on fd 3 once it accepts clients. */
function startXvfb(binary: string): Promise<{ child: ChildProcess; display: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-displayfd', '3', '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    started.add(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => {
      started.delete(child);
      reject(new Error(`Xvfb exited (${code}) before reporting a display: ${stderr.trim()}`));
    });
    const timer = setTimeout(() => reject(new Error('Xvfb did not report a display within 10 s')), 10_000);
    let out = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      // Its stderr is chatty for the whole session; stop buffering it.
      child.stderr?.removeAllListeners('data').resume();
      resolve({ child, display: Number.parseInt(out, 10) });
    });
  });
}

/** Polls a TCP connect until the port accepts; fails early if the process dies. */
function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    let settled = false;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      settled = true;
      reject(
        new Error(`OBS exited (code ${code}, signal ${signal}) before its WebSocket port ${port} opened`),
      );
    };
    child.once('exit', onExit);
    const attempt = () => {
      if (settled) return;
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        if (settled) return;
        settled = true;
        child.off('exit', onExit);
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (settled) return;
        if (Date.now() > deadline) {
          settled = true;
          child.off('exit', onExit);
          reject(new Error(`OBS WebSocket port ${port} did not open within ${timeoutMs / 1000} s`));
          return;
        }
        setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** One OBS at a time across vitest's worker processes; a lock left by a dead process is taken over. */
async function acquireLock(): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      writeFileSync(LOCK_PATH, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSafe(LOCK_PATH), 10);
    if (!Number.isInteger(holder) || !isAlive(holder)) {
      await unlink(LOCK_PATH).catch(() => {});
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another test process (pid ${holder}) has held the OBS Studio lock ${LOCK_PATH} for too long`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function releaseLock(): Promise<void> {
  if (readFileSafe(LOCK_PATH) === String(process.pid)) await unlink(LOCK_PATH).catch(() => {});
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function countMatches(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function tail(path: string): string {
  return readFileSafe(path).split('\n').slice(-40).join('\n');
}

async function writeGlobalIni(home: string, port: number, password: string): Promise<void> {
  const ini = `[General]
FirstRun=true
ConfirmOnExit=false
EnableAutoUpdates=false

[Basic]
Profile=${PROFILE}
ProfileDir=${PROFILE}
SceneCollection=${PROFILE}
SceneCollectionFile=${PROFILE}

[OBSWebSocket]
FirstLoad=false
ServerEnabled=true
ServerPort=${port}
AlertsEnabled=false
AuthRequired=true
ServerPassword=${password}
`;
  await writeFile(join(home, '.config/obs-studio/global.ini'), ini);
}

async function writeProfile(home: string, replayDir: string): Promise<void> {
  const config = join(home, '.config/obs-studio');
  await mkdir(join(config, 'basic/profiles', PROFILE), { recursive: true });
  await mkdir(join(config, 'basic/scenes'), { recursive: true });
  // A small canvas: the buffer only needs frames, and x264 shares 2 cores with the test run.
  await writeFile(
    join(config, 'basic/profiles', PROFILE, 'basic.ini'),
    `[General]
Name=${PROFILE}

[Video]
BaseCX=640
BaseCY=360
OutputCX=640
OutputCY=360
FPSType=0
FPSCommon=30

[Output]
Mode=Simple

[SimpleOutput]
FilePath=${replayDir}
RecFormat=mkv
RecQuality=Stream
RecEncoder=x264
Preset=ultrafast
VBitrate=500
RecRB=true
RecRBTime=10
RecRBSize=64
`,
  );
  const colour = { id: 'color_source', versioned_id: 'color_source_v3', name: 'Colour', enabled: true };
  const scene = {
    name: PROFILE,
    current_scene: 'Scene',
    current_program_scene: 'Scene',
    scene_order: [{ name: 'Scene' }],
    sources: [
      {
        id: 'scene',
        versioned_id: 'scene',
        name: 'Scene',
        enabled: true,
        settings: {
          id_counter: 1,
          custom_size: false,
          items: [
            {
              name: 'Colour',
              visible: true,
              locked: false,
              id: 1,
              pos: { x: 0, y: 0 },
              scale: { x: 1, y: 1 },
            },
          ],
        },
      },
      { ...colour, settings: { color: 4278255360, width: 640, height: 360 } },
    ],
  };
  await writeFile(join(config, 'basic/scenes', `${PROFILE}.json`), JSON.stringify(scene, null, 2));
}
