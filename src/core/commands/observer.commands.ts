import { observerStatusOf } from '../../../machines/observer.machine.ts';
import { checkNetconAddress } from '../../observer/netcon-address.ts';
import { conflict, invalidPayload } from '../../protocol/errors.ts';
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

/** What the loop's commands answer: how the camera is moved now, and whether it follows. */
const cameraAnswer = (snapshot: Parameters<typeof observerStatusOf>[0]) => {
  const { camera, cameraFollows } = observerStatusOf(snapshot);
  return { camera, cameraFollows };
};

const observerTestCut = defineCommand('observer_test_cut', {
  run: ({ hud }) => {
    const before = hud.snapshot('observer');
    if (!before.context.linkConnected)
      throw conflict('The game console is not connected: set its address and enable the observer first.');
    if (!before.context.director.suggestion)
      throw conflict('Nothing to cut to yet: the observer needs game data with players.');
    hud.send('observer', { type: 'observer.testCut' });
    return cameraAnswer(hud.snapshot('observer'));
  },
});

const observerProbeAgain = defineCommand('observer_probe_again', {
  run: ({ hud }) => {
    hud.send('observer', { type: 'observer.probeAgain' });
    return cameraAnswer(hud.snapshot('observer'));
  },
});

const observerPin = defineCommand('observer_pin', {
  run: ({ hud }, { strategy }) => {
    hud.send('observer', { type: 'observer.pin', strategy });
    return cameraAnswer(hud.snapshot('observer'));
  },
});

export const observerCommands: AnyCommand[] = [
  setObserverConsole,
  observerTestCut,
  observerProbeAgain,
  observerPin,
];
