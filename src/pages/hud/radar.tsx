/**
 * The radar (top left, where the game's own radar sits): the map's overview under numbered dots of
 * the players in their side colours (the observed one ringed, the dead ones crossed, where each one
 * looks), the bomb, and the utility (smokes, fires, flashes, grenades in flight). Placed by the
 * game's overview numbers (machines/radar-overviews.ts); the image is the operator's upload for the
 * map, or a plain background with the map's bounds. Hidden on a map without calibration.
 *
 * Every position is a percentage of the radar's square, so the picture follows the square's size;
 * `data-x`/`data-y` give it in pixels of the game's 1024x1024 radar image. Each dot reads its own
 * slot's signal: a frame re-renders only the dots whose player moved.
 */
import type { ReadonlySignal } from '@preact/signals';
import { computed, signal } from '@preact/signals';
import { mapLabel, normalizeMapName } from '../../../machines/map-names.ts';
import type { RadarOverview } from '../../../machines/radar-overviews.ts';
import {
  RADAR_IMAGE_SIZE,
  radarLevel,
  radarOverviewOf,
  radarPixel,
} from '../../../machines/radar-overviews.ts';
import type { DiscPlace } from '../../../machines/radar-spread.ts';
import { spreadDiscs } from '../../../machines/radar-spread.ts';
import type { GameGrenade, GamePoint } from '../../protocol/index.ts';
import { mediaUrl } from '../../protocol/index.ts';
import { SLOTS } from '../common/broadcast.ts';
import { gameLive } from '../common/game-store.ts';
import { branding, state } from '../common/store.ts';
import { gameOn, isObserved, observedPlayer, playerInSlot } from './live.ts';

/** A smoke's radius in world units (CS2: about 144). */
const SMOKE_RADIUS = 144;
/** One burning cell of an inferno, drawn with this radius in world units. */
const FLAME_RADIUS = 50;

const mapName = computed(() => {
  const name = gameLive.value.map?.name;
  return name ? (normalizeMapName(name) ?? name) : null;
});
const overview = computed(() => {
  const name = gameLive.value.map?.name;
  return name ? radarOverviewOf(name) : null;
});
const images = computed(() => {
  const name = mapName.value;
  return name ? (branding.value.radarImages?.[name] ?? null) : null;
});

/**
 * The level the radar draws: the lower one while the observed player is down there and the
 * operator uploaded the lower level's image (as the game's radar switches); the upper one otherwise,
 * the lower level's players marked on it.
 */
const shownLevel = computed<'upper' | 'lower'>(() => {
  const map = overview.value;
  const z = observedPlayer.value?.position?.[2];
  if (!map || map.thresholdZ === null || z === undefined || !images.value?.lower) return 'upper';
  return radarLevel(map, z);
});

/** The slot carrying the bomb (or planting it): its badge rides on that dot. */
const carrierSlot = computed(() => {
  const bomb = gameLive.value.bomb;
  return bomb && (bomb.state === 'carried' || bomb.state === 'planting') ? bomb.playerSlot : null;
});
const carriedState = computed(() =>
  carrierSlot.value === null ? null : (gameLive.value.bomb?.state ?? null),
);
const looseBomb = computed(() => {
  const bomb = gameLive.value.bomb;
  if (!bomb || bomb.position === null || carrierSlot.value !== null) return null;
  return bomb;
});
const grenades = computed(() => gameLive.value.grenades);

/**
 * Where a world point goes: percentages of the square, and the 1024-image pixel for the hooks. With
 * the square's side in pixels (a dot), a transform in pixels instead of the percentages.
 */
function place(map: RadarOverview, point: GamePoint, side = 0, drawnAt?: { x: number; y: number }) {
  const { px, py } = radarPixel(map, point[0], point[1]);
  const x = (drawnAt?.x ?? px) / RADAR_IMAGE_SIZE;
  const y = (drawnAt?.y ?? py) / RADAR_IMAGE_SIZE;
  return {
    style:
      side === 0
        ? { left: `${x * 100}%`, top: `${y * 100}%` }
        : {
            transform: `translate(${(x * side).toFixed(1)}px, ${(y * side).toFixed(1)}px) translate(-50%, -50%)`,
          },
    'data-x': px.toFixed(1),
    'data-y': py.toFixed(1),
  };
}

/** A world length as a percentage of the square (a smoke's size). */
const span = (map: RadarOverview, units: number) =>
  `${((units / map.scale / RADAR_IMAGE_SIZE) * 100).toFixed(3)}%`;

/**
 * The square's side in pixels, once drawn (0 before): a dot moves by a transform in pixels, which
 * the compositor applies without painting the map again (left/top would lay out and paint the
 * square in every frame; docs/performance.md).
 */
const squarePixels = signal(0);

/** A disc's width on the square (radar.css), in pixels of the page. */
const DISC_PIXELS = 24;

/**
 * Where each living player's disc is drawn, by slot, in pixels of the 1024 image: players standing
 * together are spread apart by a disc's width so each number stays readable (machines/radar-spread.ts);
 * `data-x`/`data-y` keep where they really stand.
 */
const discPlaces = computed(() => {
  const map = overview.value;
  const side = squarePixels.value;
  if (!map || side === 0) return new Map<number, { x: number; y: number }>();
  const places: DiscPlace[] = [];
  for (const slot of SLOTS) {
    const player = playerInSlot(slot).value;
    if (!player?.position || player.health <= 0) continue;
    const { px, py } = radarPixel(map, player.position[0], player.position[1]);
    places.push({ id: slot, x: px, y: py });
  }
  return spreadDiscs(places, (DISC_PIXELS * RADAR_IMAGE_SIZE) / side, 40);
});

/**
 * A slot's drawn place as text ("x,y" to a tenth, or empty): the same string while it holds, so a
 * frame re-renders only the dots whose drawn place moved.
 */
const discPlaceBySlot = new Map<number, ReadonlySignal<string>>(
  SLOTS.map((slot) => [
    slot,
    computed(() => {
      const at = discPlaces.value.get(slot);
      return at ? `${at.x.toFixed(1)},${at.y.toFixed(1)}` : '';
    }),
  ]),
);
const discPlaceOf = (slot: number): { x: number; y: number } | undefined => {
  const text = discPlaceBySlot.get(slot)?.value;
  if (!text) return undefined;
  const [x = 0, y = 0] = text.split(',').map(Number);
  return { x, y };
};

function Dot({ slot, map }: { slot: number; map: RadarOverview }) {
  const player = playerInSlot(slot).value;
  const observed = isObserved(slot);
  const carrying = carrierSlot.value === slot;
  const level = shownLevel.value;
  if (!player?.position) return null;
  const alive = player.health > 0;
  const own = radarLevel(map, player.position[2]);
  const drawnAt = alive ? discPlaceOf(slot) : undefined;
  const placed = place(map, player.position, squarePixels.value, drawnAt);
  const spread =
    drawnAt !== undefined &&
    Math.hypot(drawnAt.x - Number(placed['data-x']), drawnAt.y - Number(placed['data-y'])) > 0.5;
  return (
    <div
      class="radar__dot"
      data-slot={slot}
      data-side={player.side}
      data-alive={String(alive)}
      data-observed={String(observed)}
      data-level={own}
      data-other-level={String(own !== level)}
      data-facing={player.facing ?? ''}
      data-bomb-carrier={String(carrying)}
      data-spread={String(spread)}
      {...placed}
    >
      {alive && player.facing !== null ? (
        <span
          class="radar__facing"
          data-facing-mark
          style={{ transform: `rotate(${-player.facing}deg)` }}
          aria-hidden="true"
        />
      ) : null}
      <span class="radar__disc" data-dot-number>
        {alive ? String(slot) : null}
      </span>
      {carrying ? <span class="radar__c4 radar__c4--carried" data-bomb-state={carriedState.value} /> : null}
    </div>
  );
}

function Bomb({ map }: { map: RadarOverview }) {
  const bomb = looseBomb.value;
  if (!bomb?.position) return null;
  return (
    <div class="radar__bomb" data-bomb-state={bomb.state} {...place(map, bomb.position)}>
      <span class="radar__c4" />
    </div>
  );
}

function Grenade({ grenade, map }: { grenade: GameGrenade; map: RadarOverview }) {
  const { type } = grenade;
  if (type === 'inferno') {
    return (
      <div class="radar__inferno" data-grenade="inferno" data-grenade-id={grenade.id}>
        {grenade.flames.map((flame, i) => {
          const at = place(map, flame);
          return (
            <span
              key={i}
              class="radar__flame"
              data-flame
              {...at}
              style={{ ...at.style, width: span(map, FLAME_RADIUS * 2) }}
            />
          );
        })}
      </div>
    );
  }
  if (!grenade.position) return null;
  const at = place(map, grenade.position);
  // A smoke that has bloomed covers its circle; in flight it is a small dot like the others.
  const bloomed = type === 'smoke' && grenade.effect !== null;
  return (
    <span
      class={`radar__nade radar__nade--${type}${bloomed ? ' radar__nade--bloomed' : ''}`}
      data-grenade={type}
      data-grenade-id={grenade.id}
      data-effect={bloomed ? 'on' : 'off'}
      {...at}
      style={bloomed ? { ...at.style, width: span(map, SMOKE_RADIUS * 2) } : at.style}
    />
  );
}

function Utility({ map }: { map: RadarOverview }) {
  // Fires and smokes under the grenades in flight.
  const order = (g: GameGrenade) =>
    g.type === 'inferno' ? 0 : g.type === 'smoke' && g.effect !== null ? 1 : 2;
  const list = [...grenades.value].sort((a, b) => order(a) - order(b));
  return (
    <div class="radar__utility">
      {list.map((grenade) => (
        <Grenade key={grenade.id} grenade={grenade} map={map} />
      ))}
    </div>
  );
}

/** The image of the level shown, when the operator uploaded one for the map. */
const imageId = computed(() => {
  const set = images.value;
  if (!set) return null;
  return shownLevel.value === 'lower' ? (set.lower ?? set.image) : set.image;
});
/** Images that failed to load (deleted from the media folder …): the plain background shows instead. */
const failedImages = signal<ReadonlySet<string>>(new Set());
const imageState = computed(() => {
  const id = imageId.value;
  if (id === null) return 'none';
  return failedImages.value.has(id) ? 'failed' : 'uploaded';
});

function Backdrop() {
  const id = imageId.value;
  return (
    <>
      <div class="radar__plain" aria-hidden="true" />
      {id !== null && imageState.value === 'uploaded' ? (
        <img
          class="radar__image"
          src={mediaUrl(id)}
          alt=""
          data-radar-image={id}
          onError={() => {
            failedImages.value = new Set([...failedImages.value, id]);
          }}
        />
      ) : null}
    </>
  );
}

/** Keeps `squarePixels` in step with the square on the page (a ref callback: on mount and unmount). */
let square: HTMLDivElement | null = null;
const squareResized = new ResizeObserver(() => {
  squarePixels.value = square?.clientWidth ?? 0;
});
function observeSquare(element: HTMLDivElement | null) {
  if (square) squareResized.unobserve(square);
  square = element;
  if (element) squareResized.observe(element);
  squarePixels.value = element?.clientWidth ?? 0;
}

export function Radar() {
  const map = overview.value;
  const on = state.value?.radarVisible === true && gameOn.value && map !== null;
  return (
    <section
      class="panel radar"
      data-panel="radar"
      data-visible={String(on)}
      data-map={mapName.value ?? ''}
      data-calibrated={String(map !== null)}
      data-image={imageState.value}
      data-level-shown={shownLevel.value}
      data-two-levels={String(map?.thresholdZ != null)}
      aria-hidden={!on}
    >
      {map ? (
        <div class="radar__map" data-radar-map ref={observeSquare}>
          <Backdrop />
          <Utility map={map} />
          <Bomb map={map} />
          {SLOTS.map((slot) => (
            <Dot key={slot} slot={slot} map={map} />
          ))}
          {imageState.value === 'uploaded' ? null : (
            <span class="radar__name">{mapLabel(mapName.value ?? '')}</span>
          )}
          {map.thresholdZ !== null ? (
            <span class="radar__level" data-level-tag={shownLevel.value}>
              {shownLevel.value === 'lower' ? 'Lower level' : 'Upper level'}
            </span>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
