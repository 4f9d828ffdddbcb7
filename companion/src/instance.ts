/**
 * The Companion connection: config in, actions, feedbacks, variables and presets out. State comes
 * from the WebSocket (HudClient); commands go over HTTP and their refusals go to the log and the
 * button that sent them.
 */
import { InstanceBase, InstanceStatus, type SomeCompanionConfigField } from '@companion-module/base';
import { actionDefinitions } from './actions.ts';
import { configFields, endpointOf, type ModuleConfig, VARIABLE_GROUPS } from './config.ts';
import { feedbackDefinitions } from './feedbacks.ts';
import { type CommandAnswer, HudClient, type LinkState } from './hud-client.ts';
import { applyEvent, applyGame, emptyGameView, type GameView } from './hud-state.ts';
import { presetDefinitions } from './presets.ts';
import type { Snapshot } from './server-messages.ts';
import {
  changedValues,
  type VariableGroups,
  type VariableValues,
  variableDefinitions,
  variableValues,
} from './variables.ts';

const FLASH_MS = 2_000;
const FLASH_PHASE_MS = 250;

const STATUS_OF_LINK: Record<LinkState['kind'], InstanceStatus> = {
  connecting: InstanceStatus.Connecting,
  ok: InstanceStatus.Ok,
  bad_token: InstanceStatus.AuthenticationFailure,
  unreachable: InstanceStatus.ConnectionFailure,
  wrong_service: InstanceStatus.BadConfig,
  refused: InstanceStatus.ConnectionFailure,
  bad_config: InstanceStatus.BadConfig,
};

const WORD_OF_LINK: Record<LinkState['kind'], string> = {
  connecting: 'connecting',
  ok: 'ok',
  bad_token: 'bad token',
  unreachable: 'unreachable',
  wrong_service: 'wrong service',
  refused: 'refused',
  bad_config: 'bad config',
};

/** Feedbacks that read the snapshot: checked again whenever it changes. */
const STATE_FEEDBACKS = [
  'panel_visible',
  'overlay_open',
  'scene_shown',
  'obs_connected',
  'replay_buffer_active',
  'veto_next_step',
  'veto_map_available',
  'map_finished',
  'observer_enabled',
  'observer_mode',
  'observer_link',
  'color_preset_active',
  'stats_player_shown',
  'team_side',
  'team_score',
  'connected',
  'main_window_closed',
];

/** The status while connected but the operator app is closed: half of a desk's commands answer 503. */
export const MAIN_WINDOW_CLOSED =
  'main window closed: open the operator app and sign in (veto, match and observer commands answer 503 until then)';

/** Value feedbacks drawn from the live game: checked again when a game message changes them. */
const GAME_FEEDBACKS = ['round_time', 'player_money', 'team_score'];

function groupsOf(config: Partial<ModuleConfig>): VariableGroups {
  return Object.fromEntries(
    Object.entries(VARIABLE_GROUPS).map(([id, group]) => [
      id,
      (config[id as keyof VariableGroups] ?? group.forNew) === true,
    ]),
  ) as VariableGroups;
}

export class HudAutomationInstance extends InstanceBase<ModuleConfig> {
  #client: HudClient | undefined;
  #snapshot: Snapshot | undefined;
  #game: GameView = emptyGameView();
  #link: LinkState = { kind: 'connecting', message: 'connecting' };
  #sentValues: VariableValues = {};
  /** Buttons whose command was refused: controlId -> when the flash started. */
  #refused = new Map<string, number>();
  #flashTimer: NodeJS.Timeout | undefined;
  /** What the presets were built for: the label and the colour presets the server offers. */
  #presetKey: string | undefined;
  #groups: VariableGroups = groupsOf({});
  /** The game's figures the value feedbacks showed last, to check them only when they change. */
  #gameShown = '';
  /** The status sent last, so that an event that leaves it as it was does not send it again. */
  #statusShown = '';

  override async init(config: ModuleConfig): Promise<void> {
    this.setActionDefinitions(
      actionDefinitions({
        run: (commandId, payload, controlId) => this.#runCommand(commandId, payload, controlId),
        reject: (commandId, message, controlId) =>
          this.#refuse(controlId, `${commandId} not sent: ${message}`),
      }),
    );
    this.setFeedbackDefinitions(
      feedbackDefinitions({
        snapshot: () => this.#snapshot,
        game: () => this.#game,
        connected: () => this.#link.kind === 'ok',
        refusedFlash: (controlId) => this.#flashPhase(controlId),
      }),
    );
    this.#setGroups(config);
    this.#updatePresets();
    this.#connect(config);
  }

  override async configUpdated(config: ModuleConfig): Promise<void> {
    this.#setGroups(config);
    this.#updatePresets();
    this.#connect(config);
  }

  #setGroups(config: ModuleConfig): void {
    this.#groups = groupsOf(config);
    this.setVariableDefinitions(variableDefinitions(this.#groups));
    // Values of a group switched on must be sent even where they equal what was sent before it.
    this.#sentValues = {};
  }

  override async destroy(): Promise<void> {
    this.#client?.stop();
    this.#client = undefined;
    clearInterval(this.#flashTimer);
  }

  override getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }

  #updatePresets(): void {
    // Preset texts name the variables by the connection's label, which the user may change; the
    // colour page lists the presets the overlay reported.
    const colorPresets = this.#snapshot?.presets ?? [];
    const key = JSON.stringify([this.label, colorPresets]);
    if (this.#presetKey === key) return;
    this.#presetKey = key;
    this.setPresetDefinitions(presetDefinitions(this.label, colorPresets));
  }

  #connect(config: ModuleConfig): void {
    this.#client?.stop();
    this.#client = undefined;
    this.#snapshot = undefined;
    this.#game = emptyGameView();
    const endpoint = endpointOf(config);
    if ('problem' in endpoint) {
      this.#onLink({ kind: 'bad_config', message: endpoint.problem });
      return;
    }
    this.#client = new HudClient(endpoint, {
      link: (state) => this.#onLink(state),
      snapshot: (snapshot) => {
        this.#snapshot = snapshot;
        this.#stateChanged();
      },
      event: (message) => {
        if (!this.#snapshot) return;
        const { snapshot, outcome } = applyEvent(this.#snapshot, message);
        if (outcome === 'gap') {
          this.log(
            'debug',
            `revision ${message.revision} after ${this.#snapshot.revision}: asking for a snapshot`,
          );
          this.#client?.requestSnapshot();
        } else if (outcome === 'applied') {
          this.#snapshot = snapshot;
          this.#stateChanged();
        }
      },
      game: (message) => {
        this.#game = applyGame(this.#game, message);
        this.#sendVariables();
        this.#checkGameFeedbacks();
      },
    });
    this.#client.start();
  }

  #onLink(state: LinkState): void {
    const before = this.#link;
    this.#link = state;
    // Variables first: whoever reacts to the status finds them current.
    this.#sendVariables();
    this.checkFeedbacks('connected');
    this.#updateStatus();
    if (state.kind === 'ok') this.log('info', state.message);
    else if (state.kind !== 'connecting' && state.message !== before.message) this.log('warn', state.message);
  }

  #stateChanged(): void {
    this.#sendVariables();
    this.checkFeedbacks(...STATE_FEEDBACKS);
    this.#updatePresets();
    this.#updateStatus();
  }

  /** The link's status, or "main window closed" while the link is fine and the server says so. */
  #updateStatus(): void {
    const closed = this.#link.kind === 'ok' && this.#snapshot?.state.mainWindowOpen === false;
    const [status, message] = closed
      ? [InstanceStatus.UnknownWarning, MAIN_WINDOW_CLOSED]
      : [STATUS_OF_LINK[this.#link.kind], this.#link.message];
    // Every event changes the snapshot; the status is sent again only when it changes.
    const key = `${status} ${message}`;
    if (key === this.#statusShown) return;
    this.#statusShown = key;
    this.updateStatus(status, message);
  }

  #checkGameFeedbacks(): void {
    // Frames come up to 20 a second; the buttons change only when a figure they show does.
    const game = this.#game;
    const shown = JSON.stringify([
      game.round?.clock === undefined || game.round?.clock === null ? null : Math.ceil(game.round.clock),
      game.map?.ctScore,
      game.map?.tScore,
      [...game.players.values()].map((player) => [player.slot, player.money]),
    ]);
    if (shown === this.#gameShown) return;
    this.#gameShown = shown;
    this.checkFeedbacks(...GAME_FEEDBACKS);
  }

  #sendVariables(): void {
    const next = variableValues(this.#snapshot, this.#game, WORD_OF_LINK[this.#link.kind], this.#groups);
    const changed = changedValues(this.#sentValues, next);
    if (Object.keys(changed).length === 0) return;
    this.#sentValues = { ...this.#sentValues, ...changed };
    this.setVariableValues(changed);
  }

  async #runCommand(
    commandId: string,
    payload: Record<string, unknown> | undefined,
    controlId: string,
  ): Promise<void> {
    const client = this.#client;
    if (!client) {
      this.#refuse(
        controlId,
        `${commandId} not sent: the connection is not configured (${this.#link.message})`,
      );
      return;
    }
    this.log('debug', `send ${commandId} ${JSON.stringify(payload ?? {})}`);
    const answer = await client.command(commandId, payload);
    if (answer.ok) {
      this.log('debug', `${commandId} done (revision ${answer.state?.revision})`);
      return;
    }
    this.#refuse(controlId, refusalText(commandId, answer));
  }

  /** Logs why a button's command did not run and flashes its `command_refused` feedback. */
  #refuse(controlId: string, message: string): void {
    this.log('warn', message);
    this.#refused.set(controlId, Date.now());
    this.checkFeedbacks('command_refused');
    this.#flashTimer ??= setInterval(() => {
      const now = Date.now();
      for (const [id, since] of this.#refused) if (now - since >= FLASH_MS) this.#refused.delete(id);
      this.checkFeedbacks('command_refused');
      if (this.#refused.size === 0) {
        clearInterval(this.#flashTimer);
        this.#flashTimer = undefined;
      }
    }, FLASH_PHASE_MS);
  }

  #flashPhase(controlId: string): boolean {
    const since = this.#refused.get(controlId);
    if (since === undefined) return false;
    const elapsed = Date.now() - since;
    return elapsed < FLASH_MS && Math.floor(elapsed / FLASH_PHASE_MS) % 2 === 0;
  }
}

export function refusalText(commandId: string, answer: CommandAnswer): string {
  if (answer.status === 0) return `${commandId} not sent: ${answer.message}`;
  return `${commandId} refused (${answer.status} ${answer.error}): ${answer.message}`;
}
