/**
 * The replay: when OBS reports a saved replay, the overlay plays that clip (served by the
 * application server from the reported path only) and hides when it ends.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { withPageCredential } from '../common/client.ts';
import { lastReplay } from '../common/store.ts';

/** The clip's address; from another machine the overlay's own credential goes along (docs/obs.md). */
export function replayUrl(path: string): string {
  const credential = withPageCredential(new URL('/', window.location.href)).search.slice(1);
  return `/replay?path=${encodeURIComponent(path)}${credential ? `&${credential}` : ''}`;
}

export function ReplayPanel() {
  const clip = lastReplay.value;
  const playing = useSignal<string | null>(null);
  useEffect(() => {
    if (clip) playing.value = replayUrl(clip.path);
  }, [clip, playing]);
  const src = playing.value;
  const end = () => {
    playing.value = null;
  };
  return (
    <section
      class="panel replay"
      data-panel="replay"
      data-visible={String(src !== null)}
      data-replay-src={src ?? undefined}
    >
      <div class="replay__tag">
        <span class="replay__dot" />
        Replay
      </div>
      {src ? (
        <video
          key={src}
          class="replay__video"
          src={src}
          autoplay
          muted
          playsinline
          onEnded={end}
          onError={end}
        />
      ) : null}
    </section>
  );
}
