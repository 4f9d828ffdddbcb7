/**
 * The replay: when OBS reports a saved replay, the overlay plays that clip (served by the
 * application server from the reported path only) and hides when it ends.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { lastReplay } from '../common/store.ts';

export const replayUrl = (path: string) => `/replay?path=${encodeURIComponent(path)}`;

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
