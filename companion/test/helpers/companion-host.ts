/**
 * A test double of Companion's host side. It starts the module the way Companion does (a child
 * process with an IPC channel and MODULE_MANIFEST, CONNECTION_ID, VERIFICATION_TOKEN in its
 * environment) and speaks @companion-module/base's host API over that channel: register, init,
 * updateFeedbacks, executeAction, updateConfigAndLabel, destroy. Only this IPC is faked; the
 * module talks to a real hud-automation server.
 *
 *   const host = await CompanionHost.start({ config: { host: '127.0.0.1', port, token: '' } });
 *   await host.waitForStatus('ok');
 *   const feedback = host.addFeedback('panel_visible', { panel: 'scoreboard' });
 *   await host.runAction('toggle_scoreboard', {});
 *   await host.waitFor(() => host.feedbackValue(feedback) === true, 'scoreboard lit');
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MODULE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE_MANIFEST = `${MODULE_DIR}companion/manifest.json`;
const PACKAGED_DIR = `${MODULE_DIR}pkg/`;
const CALL_TIMEOUT_MS = 10_000;

export interface ModuleConfig {
  host: string;
  port: number;
  token: string;
}

export interface HostOptions {
  config: ModuleConfig;
  label?: string;
  /** Run the module inside this network namespace (`ip netns exec`). */
  namespace?: string;
  /** 'source' (src/main.ts through tsx, the default) or 'package' (pkg/main.js as built). */
  entry?: 'source' | 'package';
  /** The runtime: the node that runs the tests unless given (e.g. a Node 22 binary). */
  nodePath?: string;
}

interface IpcCall {
  direction: 'call';
  name: string;
  payload: string;
  callbackId?: number;
}

interface IpcResponse {
  direction: 'response';
  callbackId: number;
  success: boolean;
  payload?: string;
}

export interface LogLine {
  level: string;
  message: string;
}

export interface StatusChange {
  status: string;
  message: string | null;
}

export interface FeedbackDefinition {
  id: string;
  type: string;
  options: Array<Record<string, any>>;
}

export interface ActionDefinition {
  id: string;
  name: string;
  description?: string;
  options: Array<Record<string, any>>;
}

type Waiter = { check: () => boolean; done: () => void };

export class CompanionHost {
  readonly label: string;
  readonly logs: LogLine[] = [];
  readonly statuses: StatusChange[] = [];
  readonly variables = new Map<string, unknown>();
  readonly actions = new Map<string, ActionDefinition>();
  readonly feedbacks = new Map<string, FeedbackDefinition>();
  variableDefinitions: Array<{ id: string; name: string }> = [];
  presets: Record<string, any> = {};
  /** Every value the module sent for a feedback instance, in order. */
  readonly feedbackHistory = new Map<string, unknown[]>();
  /** Variable updates received (count of setVariableValues messages): the soak reads it. */
  variableMessages = 0;
  readonly output: string[] = [];

  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  readonly #feedbackValues = new Map<string, unknown>();
  readonly #waiters = new Set<Waiter>();
  #nextCallbackId = 1;
  #nextInstanceId = 1;
  #exited = false;

  private constructor(child: ChildProcess, label: string) {
    this.#child = child;
    this.label = label;
    child.on('message', (message) => this.#receive(message as IpcCall | IpcResponse));
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.on('exit', () => {
      this.#exited = true;
      for (const { reject } of this.#pending.values())
        reject(new Error(`the module exited:\n${this.output.join('')}`));
      this.#pending.clear();
    });
  }

  static async start(options: HostOptions): Promise<CompanionHost> {
    const label = options.label ?? 'hud';
    const entry = options.entry ?? 'source';
    if (entry === 'package' && !existsSync(`${PACKAGED_DIR}main.js`)) {
      throw new Error('pkg/main.js is missing: run npm run package first');
    }
    const node = options.nodePath ?? process.execPath;
    const args =
      entry === 'source' ? [node, '--import', 'tsx', 'src/main.ts'] : [node, `${PACKAGED_DIR}main.js`];
    const command = options.namespace ? ['ip', 'netns', 'exec', options.namespace, ...args] : args;
    const child = spawn(command[0] as string, command.slice(1), {
      cwd: MODULE_DIR,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env,
        MODULE_MANIFEST: entry === 'source' ? SOURCE_MANIFEST : `${PACKAGED_DIR}companion/manifest.json`,
        CONNECTION_ID: `test-${process.pid}`,
        VERIFICATION_TOKEN: 'host-double',
      },
    });
    const host = new CompanionHost(child, label);
    await host.waitFor(() => host.#registered, 'the module registers', 30_000);
    await host.#call('init', {
      label,
      isFirstInit: false,
      config: options.config,
      secrets: {},
      lastUpgradeIndex: -1,
      feedbacks: {},
      actions: {},
    });
    return host;
  }

  #registered = false;

  #send(message: IpcCall | IpcResponse): void {
    if (!this.#exited) this.#child.send(message);
  }

  #call(name: string, payload: unknown): Promise<any> {
    const callbackId = this.#nextCallbackId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(callbackId);
        reject(new Error(`${name}: no answer from the module within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      this.#pending.set(callbackId, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#send({ direction: 'call', name, payload: JSON.stringify(payload), callbackId });
    });
  }

  #receive(message: IpcCall | IpcResponse): void {
    if (message.direction === 'response') {
      const pending = this.#pending.get(message.callbackId);
      this.#pending.delete(message.callbackId);
      const data = message.payload ? JSON.parse(message.payload) : undefined;
      if (message.success) pending?.resolve(data);
      else pending?.reject(new Error(data?.message ?? 'the module failed the call'));
      return;
    }
    const data = message.payload ? JSON.parse(message.payload) : undefined;
    this.#handle(message.name, data);
    if (message.callbackId !== undefined) {
      const answer = message.name === 'parseVariablesInString' ? this.#parse(data) : {};
      this.#send({
        direction: 'response',
        callbackId: message.callbackId,
        success: true,
        payload: JSON.stringify(answer),
      });
    }
    for (const waiter of [...this.#waiters]) {
      if (waiter.check()) {
        this.#waiters.delete(waiter);
        waiter.done();
      }
    }
  }

  /** Companion resolves `$(label:variable)` from the values the connection set. */
  #parse({ text }: { text: string }): { text: string; variableIds: string[] } {
    const ids: string[] = [];
    const parsed = text.replace(/\$\(([^:)]+):([^)]+)\)/g, (_, label: string, id: string) => {
      ids.push(`${label}:${id}`);
      return label === this.label ? String(this.variables.get(id) ?? '') : '';
    });
    return { text: parsed, variableIds: ids };
  }

  #handle(name: string, data: any): void {
    switch (name) {
      case 'register':
        this.#registered = true;
        break;
      case 'log-message':
        this.logs.push(data);
        break;
      case 'set-status':
        this.statuses.push(data);
        break;
      case 'setActionDefinitions':
        this.actions.clear();
        for (const action of data.actions) this.actions.set(action.id, action);
        break;
      case 'setFeedbackDefinitions':
        this.feedbacks.clear();
        for (const feedback of data.feedbacks) this.feedbacks.set(feedback.id, feedback);
        break;
      case 'setVariableDefinitions':
        this.variableDefinitions = data.variables;
        for (const { id, value } of data.newValues ?? []) this.variables.set(id, value);
        break;
      case 'setVariableValues':
        this.variableMessages++;
        for (const { id, value } of data.newValues) this.variables.set(id, value);
        break;
      case 'updateFeedbackValues':
        for (const { id, value } of data.values) {
          this.#feedbackValues.set(id, value);
          const history = this.feedbackHistory.get(id) ?? [];
          history.push(value);
          // Keep the last values only: a soak runs for minutes.
          if (history.length > 64) history.splice(0, history.length - 64);
          this.feedbackHistory.set(id, history);
        }
        break;
      case 'setPresetDefinitions':
        this.presets = Object.fromEntries(data.presets.map((preset: any) => [preset.id, preset]));
        break;
      default:
        break;
    }
  }

  /** The module's process id (for its memory in /proc). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  get status(): StatusChange | undefined {
    return this.statuses[this.statuses.length - 1];
  }

  feedbackValue(instanceId: string): unknown {
    return this.#feedbackValues.get(instanceId);
  }

  /** Resolves once `check()` holds, tested after each message from the module. */
  waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const recent = this.logs.slice(-5).map((line) => `${line.level}: ${line.message}`);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for: ${what}\nstatus: ${JSON.stringify(this.status)}\nlog: ${recent.join('\n')}`,
          ),
        );
      }, timeoutMs);
      const waiter: Waiter = {
        check,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.#waiters.add(waiter);
    });
  }

  waitForStatus(status: string, timeoutMs = 15_000): Promise<void> {
    return this.waitFor(() => this.status?.status === status, `status ${status}`, timeoutMs);
  }

  waitForVariable(id: string, value: unknown, timeoutMs = 10_000): Promise<void> {
    return this.waitFor(
      () => this.variables.get(id) === value,
      `$(${this.label}:${id}) = ${JSON.stringify(value)}`,
      timeoutMs,
    );
  }

  waitForFeedback(instanceId: string, value: unknown, timeoutMs = 10_000): Promise<void> {
    return this.waitFor(
      () => this.#feedbackValues.get(instanceId) === value,
      `feedback ${instanceId} = ${JSON.stringify(value)}`,
      timeoutMs,
    );
  }

  waitForLog(pattern: RegExp, timeoutMs = 10_000): Promise<LogLine> {
    const find = () => this.logs.find((line) => pattern.test(line.message));
    return this.waitFor(() => find() !== undefined, `a log line matching ${pattern}`, timeoutMs).then(
      () => find() as LogLine,
    );
  }

  /** Places a feedback on a button, as Companion does when a button with it is shown. */
  addFeedback(
    feedbackId: string,
    options: Record<string, unknown>,
    controlId = `bank:${this.#nextInstanceId}`,
  ): string {
    const id = `fb${this.#nextInstanceId++}`;
    this.#send({
      direction: 'call',
      name: 'updateFeedbacks',
      payload: JSON.stringify({
        feedbacks: {
          [id]: {
            id,
            controlId,
            feedbackId,
            options,
            disabled: false,
            upgradeIndex: null,
            isInverted: false,
          },
        },
      }),
    });
    return id;
  }

  /** Presses a button that runs `actionId`; resolves with the module's answer. */
  runAction(
    actionId: string,
    options: Record<string, unknown>,
    controlId = 'bank:press',
  ): Promise<{ success: boolean; errorMessage?: string } | undefined> {
    const id = `action${this.#nextInstanceId++}`;
    return this.#call('executeAction', {
      action: { id, controlId, actionId, options, disabled: false, upgradeIndex: null },
      surfaceId: 'streamdeck:test',
    });
  }

  updateConfig(config: ModuleConfig): Promise<void> {
    return this.#call('updateConfigAndLabel', { label: this.label, config, secrets: {} });
  }

  async stop(): Promise<void> {
    if (this.#exited) return;
    await this.#call('destroy', {}).catch(() => {});
    await new Promise<void>((resolve) => {
      if (this.#exited) resolve();
      else {
        this.#child.once('exit', () => resolve());
        this.#child.kill('SIGTERM');
      }
    });
  }
}
