/**
 * The HUD overlay: every panel on the 1920x1080 stage, each shown as the HUD state says.
 *
 * The root carries what the zone rules of hud.css need (docs/themes.md, "Zones"): `data-open`, the
 * panels shown now; `data-stats-team`, the team whose side the stats panel takes while it is on air;
 * and `data-side-a` / `data-side-b`, the game side each team plays.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { activePreset } from '../common/broadcast.ts';
import { Stage } from '../common/stage.tsx';
import { connectionStatus, state } from '../common/store.ts';
import { BombPanel } from './bomb-panel.tsx';
import { BadgePanel, SponsorPanel } from './corner-panels.tsx';
import { Economy } from './economy.tsx';
import { KillfeedPanel } from './killfeed.tsx';
import { MomentCardPanel } from './moment-card.tsx';
import { gameOn, sideOfTeam } from './live.ts';
import { ObservedBox, PlayerBoxes } from './player-boxes.tsx';
import { Radar } from './radar.tsx';
import { ReplayPanel } from './replay-panel.tsx';
import { RoundBanner } from './round-banner.tsx';
import { Scoreboard } from './scoreboard.tsx';
import { StatsPanel, statsOnAirTeam } from './stats-panel.tsx';
import { TopBar } from './top-bar.tsx';
import { VetoPanel } from './veto-panel.tsx';

/**
 * The words of `data-open`: the `data-panel` of every panel whose `data-visible` is "true", and
 * `<panel>@<position>` for those with a `data-position`. Read from the panels' own hooks, so a
 * panel added later is in the list without an edit here.
 */
export function openPanels(root: Element): string {
  const words: string[] = [];
  for (const panel of root.querySelectorAll('[data-panel][data-visible="true"]')) {
    const name = panel.getAttribute('data-panel') ?? '';
    const position = panel.getAttribute('data-position');
    words.push(name);
    if (position) words.push(`${name}@${position}`);
  }
  return words.join(' ');
}

/**
 * Keeps the root's `data-open` in step with the panels' `data-visible`. A mutation observer's
 * callback runs before the browser paints the change, so no frame shows a panel with the zone
 * rules of the state before.
 */
function useOpenPanels() {
  const root = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const update = () => {
      const open = openPanels(element);
      if (element.getAttribute('data-open') !== open) element.setAttribute('data-open', open);
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(element, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-visible', 'data-position', 'data-panel'],
    });
    return () => observer.disconnect();
  }, []);
  return root;
}

export function Overlay() {
  const hud = state.value;
  const root = useOpenPanels();
  return (
    <Stage>
      <main
        ref={root}
        class="hud"
        data-page="hud"
        data-preset={activePreset.value}
        data-overlay-visible={String(hud?.hudWindowOpen === true)}
        data-ready={String(hud !== null)}
        data-connection={connectionStatus.value}
        data-game={gameOn.value ? 'live' : 'off'}
        data-side-a={sideOfTeam('A') ?? undefined}
        data-side-b={sideOfTeam('B') ?? undefined}
        data-stats-team={statsOnAirTeam.value ?? undefined}
      >
        <TopBar />
        <Radar />
        <PlayerBoxes />
        <ObservedBox />
        <Economy />
        <RoundBanner />
        <BombPanel />
        <MomentCardPanel />
        <KillfeedPanel />
        <Scoreboard visible={hud?.scoreboardVisible === true} />
        <VetoPanel visible={hud?.vetoVisible === true} />
        <StatsPanel visible={hud?.statsVisible === true} />
        <BadgePanel />
        <SponsorPanel />
        <ReplayPanel />
      </main>
    </Stage>
  );
}
