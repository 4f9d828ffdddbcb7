/**
 * Integrations > Game: whether CS2's game data arrives ("receiving from 127.0.0.1, last frame 0.1 s
 * ago", or what is wrong), the cfg file (install it, or copy it), the recordings of game data (record,
 * replay at a speed, stop), the sides of team A and team B and the players the game reports.
 */
import { signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { GameSetup } from '../../protocol/index.ts';
import { gameLive, gameStatus, serverClockOffset } from '../common/game-store.ts';
import { match, panelStatus, recorder, state } from '../common/store.ts';
import { useNow } from '../common/use-now.ts';
import { request } from './api.ts';
import { Card, CommandButton, ConfirmButton, CopyButton, ErrorText, Switch, useCommand } from './ui.tsx';

const INSTALL_STATE = {
  current: 'installed and current',
  outdated: 'installed, but for another port, address or token: install again',
  missing: 'not installed',
  unreadable: 'present but not a readable cfg file: install again',
} as const;

function Receiving() {
  const status = gameStatus.value;
  const now = useNow(100);
  if (!status) return <p class="muted">Waiting for the server…</p>;
  const ago =
    status.lastFrameAt === null
      ? null
      : Math.max(0, (now - serverClockOffset.value - status.lastFrameAt) / 1000);
  const receiving = status.receiving && status.problem !== 'player_view';
  return (
    <div data-game-receiving={status.receiving ? 'yes' : 'no'} data-game-problem={status.problem ?? 'none'}>
      <p role="status" class={receiving ? undefined : 'muted'}>
        {status.receiving && status.source
          ? `Receiving from ${status.source}, last frame ${ago === null ? '–' : ago.toFixed(1)} s ago`
          : 'Not receiving game data'}
      </p>
      {status.problem && status.problem !== 'stopped' ? <ErrorText message={status.message} /> : null}
      {status.problem === 'stopped' ? <p class="muted small">{status.message}</p> : null}
      <p class="muted small">
        {status.frames} frames · observer slots numbered as{' '}
        {status.slotNumbering === 'cs2' ? 'CS2 (0–9)' : 'CS:GO (1–9, 0)'}
        {status.numberingFrom === 'version' ? ', told by the game version' : ', by the setting'}
        {status.seriesMap !== null ? ` · map ${status.seriesMap} of the series` : ''}
      </p>
      {status.notes.map((note) => (
        <p class="muted small" data-game-note>
          {note}
        </p>
      ))}
    </div>
  );
}

/**
 * What GET /api/panel/game answered (the cfg files, the installs, HLAE's lines for another PC),
 * asked again each time the view opens: the cfg card and the HLAE card read it.
 */
const setup = signal<GameSetup | null>(null);

function CfgFile() {
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const load = async (install?: { lan: boolean }) => {
    busy.value = true;
    error.value = null;
    const answer = install
      ? await request<GameSetup>('POST', '/api/panel/game/install', install)
      : await request<GameSetup>('GET', '/api/panel/game');
    busy.value = false;
    if (answer.ok) setup.value = answer;
    else error.value = answer.message;
  };
  useEffect(() => {
    void load();
  }, []);
  const current = setup.value;
  return (
    <Card title="Game cfg file" hook="game-cfg" wide>
      <p class="muted small">
        CS2 sends game data to this server once the file {current ? <code>{current.fileName}</code> : null} is
        in its <code>game/csgo/cfg</code> folder. Restart CS2 after installing it.
      </p>
      {current ? (
        <ul class="address-list" data-game-installs={current.installs.length}>
          {current.installs.length === 0 ? (
            <li class="muted">No CS2 install found in Steam's libraries: copy the file there yourself.</li>
          ) : (
            current.installs.map((install) => (
              <li data-game-install={install.state}>
                <code>{install.path}</code>: {INSTALL_STATE[install.state]}
              </li>
            ))
          )}
        </ul>
      ) : null}
      <div class="row">
        <button
          type="button"
          class="btn btn--primary"
          aria-busy={busy.value}
          onClick={() => void load({ lan: false })}
        >
          Install into CS2
        </button>
        {current?.lanCfg ? (
          <button type="button" class="btn" aria-busy={busy.value} onClick={() => void load({ lan: true })}>
            Install for a game on another PC
          </button>
        ) : null}
        {current ? (
          <CopyButton text={current.cfg} label="Copy the cfg file" caption="Copy the cfg file" />
        ) : null}
        {current?.lanCfg ? (
          <CopyButton
            text={current.lanCfg}
            label="Copy the cfg file for another PC"
            caption="Copy the cfg file for another PC"
          />
        ) : null}
      </div>
      <ErrorText message={error.value} />
    </Card>
  );
}

/** The numbering used when the game's version does not tell which game sent a frame. */
function Numbering() {
  const settings = panelStatus.value?.settings;
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  if (!settings) return null;
  const csgo = settings.game.slotNumbering === 'csgo';
  const save = async (next: boolean) => {
    busy.value = true;
    error.value = null;
    const answer = await request('POST', '/api/panel/settings', {
      game: { slotNumbering: next ? 'csgo' : 'cs2' },
    });
    busy.value = false;
    if (!answer.ok) error.value = answer.message;
  };
  return (
    <>
      <Switch
        label="CS:GO slot numbering (1–9, 0) when the game version does not tell"
        checked={csgo}
        disabled={busy.value}
        onChange={(next) => void save(next)}
        hook={{ 'data-setting': 'slot-numbering' }}
      />
      <ErrorText message={error.value} />
    </>
  );
}

const SPEEDS = [1, 2, 4, 8, 16] as const;

/** How long a recording or replay has run, "1:05". */
const clock = (ms: number) => {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * Record the game's frames, replay a recording through the ingest (a rehearsal: the HUD and the
 * observer run on it), docs/game-data.md "Record and replay". The list and what runs are the
 * server's (the `recorder` event); every button is a command.
 */
function Recordings() {
  const view = recorder.value;
  const speed = useSignal<number>(1);
  const now = useNow(1000);
  if (!view) return null;
  const serverNow = now - serverClockOffset.value;
  return (
    <Card title="Recordings" hook="game-recordings" wide>
      <div data-recorder-state={view.state}>
        {view.state === 'recording' && view.recording ? (
          <p role="status" data-recording-file={view.recording.file}>
            Recording to {view.recording.file} · {clock(serverNow - view.recording.startedAt)}
          </p>
        ) : null}
        {view.state === 'replaying' && view.replay ? (
          <p role="status" data-replay-file={view.replay.file}>
            Replaying {view.replay.file} at {view.replay.speed}x ·{' '}
            {clock((serverNow - view.replay.startedAt) * view.replay.speed)} of{' '}
            {clock(view.replay.durationMs)} · the game's own frames are dropped meanwhile
          </p>
        ) : null}
        {view.state === 'idle' ? (
          <p class="muted">
            Record the game's frames to rehearse a show or test the observer on a real match later.
          </p>
        ) : null}
        {view.ended ? (
          <p class="muted small" data-recorder-ended>
            {view.ended.text}
          </p>
        ) : null}
      </div>
      <div class="row">
        {view.state === 'recording' ? (
          <CommandButton action="game_record_stop" variant="danger" data-action="record-stop">
            Stop recording
          </CommandButton>
        ) : view.state === 'replaying' ? (
          <CommandButton action="game_replay_stop" variant="danger" data-action="replay-stop">
            Stop replay
          </CommandButton>
        ) : (
          <CommandButton action="game_record_start" variant="primary" data-action="record-start">
            Record
          </CommandButton>
        )}
        <label class="field field--inline">
          <span>Replay speed</span>
          <select
            data-setting="replay-speed"
            value={String(speed.value)}
            onChange={(event) => {
              speed.value = Number((event.target as HTMLSelectElement).value);
            }}
          >
            {SPEEDS.map((value) => (
              <option value={String(value)}>{value}x</option>
            ))}
          </select>
        </label>
      </div>
      {view.recordings.length === 0 ? (
        <p class="muted small">No recordings yet.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Recording</th>
              <th scope="col">Size</th>
              <th scope="col">
                <span class="sr-only">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.recordings.map((entry) => (
              <tr data-recording={entry.file}>
                <td>{entry.file}</td>
                <td>
                  {entry.bytes < 1024 * 1024
                    ? `${Math.ceil(entry.bytes / 1024)} KiB`
                    : `${(entry.bytes / 1024 / 1024).toFixed(1)} MiB`}
                </td>
                <td>
                  <CommandButton
                    action="game_replay_start"
                    payload={{ file: entry.file, speed: speed.value }}
                    disabled={view.state !== 'idle'}
                    data-action="replay-start"
                  >
                    Replay at {speed.value}x
                  </CommandButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="muted small">
        Files in the data directory's recordings folder (the cfg's token is left out); each stops at 256 MiB.
      </p>
    </Card>
  );
}

function Sides() {
  const sides = state.value?.sides;
  const summary = match.value;
  if (!sides) return null;
  const name = (team: 'A' | 'B') =>
    (team === 'A' ? summary?.teamA?.name : summary?.teamB?.name) ?? `Team ${team}`;
  return (
    <Card title="Sides" hook="game-sides">
      <p data-game-sides={`${sides.teamA}-${sides.teamB}`}>
        {name('A')}: {sides.teamA} · {name('B')}: {sides.teamB}
      </p>
      <p class="muted small">
        The game's team names set the sides when they match team A and team B; otherwise the sides change at
        half time and at each overtime half.
      </p>
      <SwapSides sideA={sides.teamA} nameA={name('A')} nameB={name('B')} />
    </Card>
  );
}

function Players() {
  const live = gameLive.value;
  const players = Object.values(live.players).sort((a, b) => (a.slot || 10) - (b.slot || 10));
  if (players.length === 0) return null;
  return (
    <Card
      title="Players"
      hook="game-players"
      wide
      actions={
        <CommandButton action="set_stats_player" payload={{ slot: null }} data-action="stats-follow">
          Stats follow the observed player
        </CommandButton>
      }
    >
      <table class="table">
        <thead>
          <tr>
            <th scope="col">Slot</th>
            <th scope="col">Player</th>
            <th scope="col">Side</th>
            <th scope="col">HP</th>
            <th scope="col">K/D/A</th>
            <th scope="col">ADR</th>
            <th scope="col">
              <span class="sr-only">Stats</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {players.map((player) => {
            const observed = live.observed?.steamid === player.steamid;
            return (
              <tr
                data-slot={player.slot}
                data-observed={observed ? 'yes' : 'no'}
                class={observed ? 'row--observed' : undefined}
                aria-current={observed ? 'true' : undefined}
              >
                <td>{player.slot}</td>
                <td>
                  {player.name}
                  {observed ? ' ' : null}
                  {observed ? (
                    <span class="observed-mark" data-observed-mark>
                      Observed
                    </span>
                  ) : null}
                </td>
                <td>{player.side}</td>
                <td>{player.health}</td>
                <td>
                  {player.kills}/{player.deaths}/{player.assists}
                </td>
                <td>{player.adr ?? '–'}</td>
                <td>
                  <CommandButton
                    action="set_stats_player"
                    payload={{ slot: player.slot }}
                    data-action="stats-player"
                  >
                    Stats of {player.name}
                  </CommandButton>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}

/**
 * HLAE's game-event link: whether the killfeed is exact (HLAE's player_death events) or inferred
 * from frames, and the lines to type into the game's console (docs/game-data.md, "The killfeed from HLAE").
 */
function HlaeLink() {
  const status = gameStatus.value;
  if (!status) return null;
  const { hlae } = status;
  const state = hlae.live ? 'live' : hlae.connected ? 'connected' : 'off';
  return (
    <Card title="Killfeed from HLAE" hook="game-hlae" wide>
      <p
        role="status"
        data-hlae-state={state}
        data-hlae-deaths={hlae.deaths}
        class={hlae.live ? undefined : 'muted'}
      >
        {hlae.live
          ? `HLAE connected from ${hlae.source ?? '?'}: the killfeed is exact · ${hlae.deaths} ${hlae.deaths === 1 ? 'death' : 'deaths'} taken`
          : hlae.connected
            ? `HLAE connected from ${hlae.source ?? '?'}, waiting for its hello`
            : 'HLAE not connected: the killfeed is inferred from the game data'}
      </p>
      {hlae.refused ? <ErrorText message={`The last link was closed: ${hlae.refused}`} /> : null}
      {hlae.console.length > 0 ? (
        <>
          <p class="muted small">
            On this PC, with CS:GO started from HLAE, type into the game's console (mirv_pgl is HLAE's CS:GO
            tool; CS2's HLAE has no mirv_pgl):
          </p>
          <pre class="console-lines" data-hlae-console>
            {hlae.console.join('\n')}
          </pre>
          <CopyButton text={hlae.console.join('; ')} label="Copy the console lines" />
        </>
      ) : (
        <p class="muted small">The local automation server is switched off: HLAE has nowhere to connect.</p>
      )}
      <LanLines
        lines={setup.value?.hlaeLanConsole ?? null}
        offered={hlae.console.length > 0 && setup.value?.lanCfg != null}
      />
    </Card>
  );
}

/**
 * The lines for HLAE on another PC (this machine's network address, the access token in the link's
 * address): only the operator app has them. Without local network mode, how to get them.
 */
function LanLines({ lines, offered }: { lines: string[] | null; offered: boolean }) {
  if (!offered) return null;
  if (!lines) {
    return (
      <p class="muted small" data-hlae-lan="off">
        For HLAE on another PC, switch local network mode on (Integrations &gt; Local automation).
      </p>
    );
  }
  return (
    <>
      <p class="muted small">
        On another PC of this network (the link carries the access token: trusted networks only):
      </p>
      <pre class="console-lines" data-hlae-lan-console>
        {lines.join('\n')}
      </pre>
      <CopyButton text={lines.join('; ')} label="Copy the console lines for another PC" />
    </>
  );
}

export function GameView() {
  return (
    <div class="grid">
      <Card title="Game data" hook="game-status" wide>
        <Receiving />
        <Numbering />
      </Card>
      <HlaeLink />
      <CfgFile />
      <Recordings />
      <Sides />
      <Players />
    </div>
  );
}

/** Swapping the sides turns the scoreboard round on air: it asks first, as everything irreversible on air does. */
function SwapSides(props: { sideA: string; nameA: string; nameB: string }) {
  const swap = useCommand();
  const other = props.sideA === 'CT' ? 'T' : 'CT';
  return (
    <span class="command">
      <ConfirmButton
        label="Swap sides"
        variant="plain"
        busy={swap.busy.value}
        hook={{ 'data-action': 'swap-sides' }}
        question="Swap the sides on air?"
        detail={`${props.nameA} shows on ${other} and ${props.nameB} on ${props.sideA} on every page now. The game data sets the sides again when its team names match. Undo takes it back.`}
        confirmLabel="Swap on air"
        onConfirm={() => void swap.run('swap_sides')}
      />
      <ErrorText message={swap.error.value} />
    </span>
  );
}
