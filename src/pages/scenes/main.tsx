/**
 * The scene pages: /scenes/window follows show_sen_scene and hide_sen_scene (transparent while the
 * window is closed); /scenes/<scene> always shows its own scene (the spec's "keep their own
 * address"). They follow the state as role=scene and never send commands.
 */

import type { Static } from '@sinclair/typebox';
import { render } from 'preact';
import { SceneSchema } from '../../protocol/index.ts';
import { activePreset } from '../common/broadcast.ts';
import { Client } from '../common/client.ts';
import { Stage } from '../common/stage.tsx';
import { connectionStatus, state } from '../common/store.ts';
import { SCENE_VIEWS } from './scenes.tsx';

type Scene = Static<typeof SceneSchema>;

const SCENES = SceneSchema.anyOf.map((member) => member.const) as Scene[];
const asked = window.location.pathname.replace(/^\/scenes\//, '').replace(/\/$/, '');
/** The fixed scene of this address, or null for the scene window. */
const fixed: Scene | null = SCENES.find((scene) => scene === asked) ?? null;

function ScenePage() {
  const hud = state.value;
  const scene = fixed ?? hud?.senScene ?? null;
  const View = scene ? SCENE_VIEWS[scene] : null;
  return (
    <Stage>
      <main
        class="scene-page"
        data-page="scene"
        data-scene-page={fixed ?? 'window'}
        data-preset={activePreset.value}
        data-ready={String(hud !== null)}
        data-shown-scene={scene ?? 'none'}
        data-connection={connectionStatus.value}
      >
        {View && scene ? (
          <div class="scene-frame" key={scene}>
            <View />
          </div>
        ) : null}
      </main>
    </Stage>
  );
}

const root = document.getElementById('app');
if (root) render(<ScenePage />, root);
new Client({ role: 'scene' }).start();
