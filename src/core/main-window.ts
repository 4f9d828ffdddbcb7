import type { HudSystem } from './hud-system.ts';

/** After the last operator app page goes, the main window counts as closed this much later. */
export const MAIN_WINDOW_GRACE_MS = 750;

/**
 * The main window is the operator app: open and signed in while at least one signed-in operator
 * app page is connected. A reload (the page goes and comes back at once) does not flicker the
 * state: the window closes only when no page came back within MAIN_WINDOW_GRACE_MS.
 */
export class MainWindow {
  #pages = 0;
  #closing: NodeJS.Timeout | undefined;

  constructor(
    private readonly hud: HudSystem,
    /** --headless: no operator app around the service; the main window always counts as open. */
    private readonly always: boolean,
  ) {}

  /** A signed-in operator app page connected; call the returned function when it goes. */
  attach(): () => void {
    this.#pages++;
    clearTimeout(this.#closing);
    this.#report(true);
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.#pages--;
      if (this.#pages > 0) return;
      clearTimeout(this.#closing);
      this.#closing = setTimeout(() => this.#report(false), MAIN_WINDOW_GRACE_MS);
    };
  }

  /** The sign-in key changed: every page is signed out. */
  signOutAll(): void {
    if (this.always) return;
    this.hud.send('host', { type: 'host.report', signedIn: false, mainWindowOpen: this.#pages > 0 });
  }

  close(): void {
    clearTimeout(this.#closing);
  }

  #report(open: boolean): void {
    if (this.always) return;
    this.hud.send('host', { type: 'host.report', mainWindowOpen: open, signedIn: open });
  }
}
