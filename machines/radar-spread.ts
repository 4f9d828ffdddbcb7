/**
 * Discs of players standing together, spread apart so each number stays readable (issue 35): the
 * radar draws each player as a numbered disc; players in one spot (a spawn, a stack on a site) put
 * their discs on top of each other. Plain computation over the discs' places, no imports.
 */

export interface DiscPlace {
  id: number;
  x: number;
  y: number;
}

/**
 * Where to draw each disc: moved apart until no two centres are closer than `gap` (the disc's
 * diameter), each by half of what is missing along the line between them, a few rounds over all
 * pairs; discs in the very same spot leave it in directions set by their ids, so the picture is the
 * same for the same places. A disc moves as little as it can: far ones do not move at all.
 */
export function spreadDiscs(
  places: readonly DiscPlace[],
  gap: number,
  rounds = 12,
): Map<number, { x: number; y: number }> {
  const at = places.map((place) => ({ id: place.id, x: place.x, y: place.y }));
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (let i = 0; i < at.length; i++)
      for (let j = i + 1; j < at.length; j++) {
        const a = at[i] as DiscPlace;
        const b = at[j] as DiscPlace;
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let distance = Math.hypot(dx, dy);
        if (distance >= gap - 1e-6) continue;
        if (distance < 1e-6) {
          // The same spot: apart along an angle of their ids.
          const angle = ((a.id * 7 + b.id * 3) % 12) * (Math.PI / 6);
          dx = Math.cos(angle);
          dy = Math.sin(angle);
          distance = 1;
        }
        const push = (gap - Math.hypot(b.x - a.x, b.y - a.y)) / 2;
        const ux = dx / distance;
        const uy = dy / distance;
        a.x -= ux * push;
        a.y -= uy * push;
        b.x += ux * push;
        b.y += uy * push;
        moved = true;
      }
    if (!moved) break;
  }
  return new Map(at.map((place) => [place.id, { x: place.x, y: place.y }]));
}
