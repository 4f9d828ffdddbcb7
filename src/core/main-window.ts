import type { EventOf, HudSystem } from './hud-system.ts';

export { MAIN_WINDOW_GRACE_MS } from '../../machines/host.machine.ts';

/**
 * The main window is the operator app: open and signed in while at least one signed-in operator
 * app page is connected. A reload (the page goes and comes back at once) does not flicker the
 * state: the host machine closes the window only when no page came back within its grace period
 * (MAIN_WINDOW_GRACE_MS, an `after` of machines/host.machine.ts).
 */
export class MainWindow {
  #pages = 0;

  constructor(
    private readonly hud: HudSystem,
    /** --headless: no operator app around the service; the main window always counts as open. */
    private readonly always: boolean,
  ) {}

  /** A signed-in operator app page connected; call the returned function when it goes. */
  attach(): () => void {
    this.#pages++;
    this.#send({ type: 'host.report', mainWindowOpen: true, signedIn: true });
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.#pages--;
      if (this.#pages === 0) this.#send({ type: 'host.pagesGone' });
    };
  }

  /** The sign-in key changed: every page is signed out. */
  signOutAll(): void {
    this.#send({ type: 'host.report', signedIn: false, mainWindowOpen: this.#pages > 0 });
  }

  /** Nothing of its own to stop: the grace period is the host machine's and ends with it. */
  close(): void {}

  #send(event: EventOf<'host'>): void {
    if (this.always) return;
    this.hud.send('host', event);
  }
}
