import { checkNetconAddress } from '../../observer/netcon-address.ts';
import { invalidPayload } from '../../protocol/errors.ts';
import { observerViewOf } from '../views.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

/** set_smart_observer (the mode) is with the production commands, where the spec lists it. */
const setObserverConsole = defineCommand('set_observer_console', {
  run: ({ hud }, { host, port }) => {
    // The console takes any command and has no password: it is never reached outside the local network.
    const address = checkNetconAddress(host, port);
    if (!address.ok) throw invalidPayload(`host: ${address.message}`);
    hud.send('observer', { type: 'observer.netcon.configure', host: address.host, port: address.port });
    return { link: observerViewOf(hud.snapshot('observer')).link };
  },
});

export const observerCommands: AnyCommand[] = [setObserverConsole];
