/**
 * Game frames for tests: the real CS:GO captures in test/fixtures, CS2 frames derived from them, and
 * a POST with the headers the game sends (Valve's HTTP client, keep-alive like the game).
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RunningServer } from '../../src/server.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export type Frame = Record<string, any>;

export const fixture = async (name: string): Promise<any> =>
  JSON.parse(await readFile(`${FIXTURES}${name}`, 'utf8'));

export const FAZE_NAVI = 'gsi_csgo_gotv_pro_faze-vs-navi_dust2__sces-csgo-hud-fe__output.json';
export const BOTS_DUST2 = 'gsi_csgo_spectator_bots_dust2__nodecg-csgo-manager__csgo-example.json';
export const ROUND_SEQUENCE = 'gsi_csgo_spectator_round_sequence__nodecg-csgo-manager__standard-frames.json';
export const WORKSHOP_MIRAGE = 'gsi_csgo_spectator_workshop-mirage__csgogsi__test-base-packet.json';

/** A CS2 build number (1.40.9.3): CS2's public builds are 14000 and up. */
export const CS2_VERSION = 14093;

/**
 * DERIVED: the CS2 frame of a CS:GO capture, by the documented differences (docs/game-data.md):
 * CS2 numbers observer_slot 0..9 where CS:GO numbered 1..9,0 (the player on key 1 has 0, on key 0
 * has 9), and reports a provider version of 14000 or more. Everything else is the captured frame.
 */
export function toCs2(frame: Frame, version = CS2_VERSION): Frame {
  const copy = structuredClone(frame);
  copy.provider = { ...copy.provider, version };
  const shift = (player: Frame) => {
    if (typeof player.observer_slot === 'number') player.observer_slot = (player.observer_slot + 9) % 10;
  };
  for (const player of Object.values<Frame>(copy.allplayers ?? {})) shift(player);
  if (copy.player) shift(copy.player);
  return copy;
}

export const withToken = (frame: Frame, token: string | undefined): Frame => {
  const copy = structuredClone(frame);
  if (token === undefined) delete copy.auth;
  else copy.auth = { token };
  return copy;
};

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** POSTs a frame as the game does (its headers, one kept-alive connection) and reads the answer. */
export function postFrame(
  port: number,
  frame: unknown,
  path = '/gsi',
): Promise<{ status: number; body: any }> {
  const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          Host: `127.0.0.1:${port}`,
          'User-Agent': 'Valve/Steam HTTP Client 1.0 (730)',
          'Content-Type': 'application/json',
          Accept: 'text/html,*/*;q=0.9',
          'Accept-Encoding': 'gzip,identity,*;q=0',
          'Accept-Charset': 'ISO-8859-1,utf-8,*;q=0.7',
          'Content-Length': Buffer.byteLength(text),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString();
          let body: unknown;
          try {
            body = JSON.parse(raw);
          } catch {
            body = raw;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A frame POSTed as the game does, with the server's auth token, that must be accepted (200). */
export async function postAccepted(server: RunningServer, frame: Frame): Promise<void> {
  const answer = await postFrame(server.applicationPort, withToken(frame, server.service.game.token));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** A frame of the map at a round count and phase, from a captured frame (for half time and overtime). */
export function atRound(frame: Frame, round: number, roundPhase: string, mapPhase = 'live'): Frame {
  const copy = structuredClone(frame);
  copy.map = { ...copy.map, round, phase: mapPhase };
  copy.round = { ...copy.round, phase: roundPhase };
  return copy;
}
