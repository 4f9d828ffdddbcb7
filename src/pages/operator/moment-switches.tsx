/**
 * The on-air switches of the moment cards (half-time, map point, match point, timeouts): each card
 * goes on air by the game state while its switch is on, and stays off air while it is off; and of
 * the overlay's killfeed. Saved with the settings (branding.momentCards, branding.killfeedOnAir), so
 * a restart keeps them. A component of its own, shown
 * in the HUD view and meant for the Live page.
 */
import { useSignal } from '@preact/signals';
import type { MomentCard } from '../../protocol/index.ts';
import { ALL_MOMENT_CARDS, MOMENT_CARDS } from '../../protocol/index.ts';
import { panelStatus } from '../common/store.ts';
import { api } from './api.ts';
import { Card, ErrorText, Switch } from './ui.tsx';

const LABELS: Record<MomentCard, string> = {
  halftime: 'Half-time card',
  mapPoint: 'Map point card',
  matchPoint: 'Match point card',
  timeout: 'Timeout card',
};

export function MomentSwitches() {
  const error = useSignal<string | null>(null);
  const branding = panelStatus.value?.settings.branding;
  if (!branding) return null;
  const cards = branding.momentCards ?? ALL_MOMENT_CARDS;
  const flip = async (card: MomentCard, on: boolean) => {
    const answer = await api.settings({ branding: { momentCards: { ...cards, [card]: on } } });
    error.value = answer.ok ? null : answer.message;
  };
  const saveKillfeed = async (on: boolean) => {
    const answer = await api.settings({ branding: { killfeedOnAir: on } });
    error.value = answer.ok ? null : answer.message;
  };
  return (
    <Card title="Moment cards" hook="moment-cards">
      <p class="muted small">On air by the game state while on; off keeps the card off air.</p>
      <ul class="switch-list">
        {MOMENT_CARDS.map((card) => (
          <li key={card}>
            <Switch
              label={LABELS[card]}
              checked={cards[card]}
              onChange={(on) => void flip(card, on)}
              hook={{ 'data-moment-switch': card }}
            />
          </li>
        ))}
        <li>
          <Switch
            label="Killfeed (ours, where the game's is)"
            checked={branding.killfeedOnAir !== false}
            onChange={(on) => void saveKillfeed(on)}
            hook={{ 'data-killfeed-switch': 'on-air' }}
          />
        </li>
      </ul>
      <ErrorText message={error.value} />
    </Card>
  );
}
