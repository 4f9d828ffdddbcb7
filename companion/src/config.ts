import type { SomeCompanionConfigField } from '@companion-module/base';
import type { Endpoint } from './hud-client.ts';

export interface ModuleConfig {
  host: string;
  port: number;
  token: string;
  /** Publish the live game's variables (round clock, live score, bomb): a dozen, changing every frame. */
  variablesGame: boolean;
  /** Publish each slot's live figures (side, health, money, kills, deaths, ADR): 60 variables. */
  variablesPlayers: boolean;
}

/**
 * The variable groups a desk opts into, each a checkbox of the config (vMix's module learned that a
 * few hundred variables nobody asked for slow every Companion page that lists them).
 */
export const VARIABLE_GROUPS = {
  variablesGame: { label: 'Live game variables (round clock, live score, bomb)', forNew: true },
  variablesPlayers: { label: 'Per-player variables by slot (side, health, money, kills, deaths, ADR)', forNew: false },
} as const;
export type VariableGroup = keyof typeof VARIABLE_GROUPS;

export const DEFAULT_PORT = 44555;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function configFields(): SomeCompanionConfigField[] {
  return [
    {
      type: 'static-text',
      id: 'info',
      width: 12,
      label: 'hud-automation',
      value:
        'On the machine that runs hud-automation, keep 127.0.0.1 and leave the token empty. From another machine of ' +
        'the local network: switch on local network mode (Integrations > Local automation, or serve --lan), enter ' +
        "that machine's address and the access token (hud-automation token prints it).",
    },
    { type: 'textinput', id: 'host', label: 'Host', width: 6, default: '127.0.0.1' },
    { type: 'number', id: 'port', label: 'Port', width: 3, min: 1, max: 65535, default: DEFAULT_PORT },
    {
      type: 'textinput',
      id: 'token',
      label: 'Access token (only from another machine)',
      width: 12,
      default: '',
      tooltip: '43 characters, as `hud-automation token` prints it. Not needed on the same machine.',
    },
    ...Object.entries(VARIABLE_GROUPS).map(([id, group]) => ({
      type: 'checkbox' as const,
      id,
      label: group.label,
      width: 6,
      default: group.forNew,
    })),
  ];
}

/** The endpoint a config names, or a message saying what to fix. */
export function endpointOf(config: Partial<ModuleConfig>): Endpoint | { problem: string } {
  const host = String(config.host ?? '').trim();
  const port = Number(config.port);
  const token = String(config.token ?? '').trim();
  if (host === '' || /[\s/?#@]/.test(host)) {
    return { problem: `host "${host}" is not an address: write a name or an IP such as 192.168.1.20` };
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return {
      problem: `port ${config.port} is not a port number (1 to 65535; hud-automation uses ${DEFAULT_PORT})`,
    };
  }
  if (token !== '' && !TOKEN.test(token)) {
    return {
      problem:
        'the access token is 43 characters of A-Z a-z 0-9 - _: copy it again from hud-automation token',
    };
  }
  return { host: host.replace(/^\[(.*)\]$/, '$1'), port, token };
}
