/**
 * The veto panel (toggle_veto): every step with its type, team and map, revealed step by step as
 * veto_reveal says (the manual session live, veto_set or an import alike: the match carries them).
 * A step not revealed yet is a numbered card face down, and the page holds nothing of it but its
 * type: no map, no team, in the picture or in its hooks.
 */
import { useEffect, useRef } from 'preact/hooks';
import { labelOf, teams } from '../common/broadcast.ts';
import { match, reveal } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';

const TYPE_WORDS = { ban: 'Ban', pick: 'Pick', decider: 'Decider' } as const;

export function VetoPanel(props: { visible: boolean }) {
  const steps = match.value?.veto?.steps ?? [];
  const revealed = reveal.value?.revealed ?? match.value?.veto?.revealed ?? 0;
  const format = match.value?.boFormat?.toUpperCase() ?? '';
  const { A, B } = teams.value;
  // Steps revealed together (mode all) turn over one after the other; a single next turns at once.
  const before = useRef(revealed);
  const from = Math.min(before.current, revealed);
  useEffect(() => {
    before.current = revealed;
  }, [revealed]);
  return (
    <section class="panel veto" data-panel="veto" data-visible={String(props.visible)}>
      <header class="veto__head">
        <span class="veto__title">Map veto</span>
        <span class="veto__teams">
          <b>{A.name}</b> vs <b>{B.name}</b>
        </span>
        {format ? <span class="veto__format">{format}</span> : null}
      </header>
      {steps.length === 0 ? (
        <p class="veto__empty">The veto has not started</p>
      ) : (
        <ol class="veto__steps" style={{ '--steps': steps.length }}>
          {steps.map((step, index) => {
            const shown = index < revealed;
            const team = shown && step.team ? teams.value[step.team] : null;
            return (
              <li
                key={index}
                class={`vstep vstep--${step.type}`}
                data-veto-step={index + 1}
                data-type={step.type}
                data-team={shown ? step.team : undefined}
                data-map={shown ? step.map : undefined}
                data-revealed={String(shown)}
                style={{ '--delay': `${Math.max(0, index - from) * 140}ms` }}
              >
                <span class="vstep__back" aria-hidden={shown}>
                  {index + 1}
                </span>
                {shown ? (
                  <span class="vstep__face">
                    <span class={`vstep__map map-art map-art--${step.map}`}>
                      <span class="vstep__label">{labelOf(step.map)}</span>
                    </span>
                    <span class="vstep__who">
                      {team && step.team ? (
                        <>
                          <TeamLogo side={step.team} name={team.name} logo={team.logo} size="sm" />
                          <span class="vstep__team">{team.name}</span>
                        </>
                      ) : (
                        <span class="vstep__team">Left over</span>
                      )}
                    </span>
                    <span class="vstep__type">{TYPE_WORDS[step.type]}</span>
                  </span>
                ) : (
                  <span class="vstep__face" aria-hidden="true" />
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
