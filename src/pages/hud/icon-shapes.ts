/**
 * The overlay's icons, drawn for this project: one filled silhouette each, on a grid 24 units high
 * (weapons point right, their width is their length). Nothing thinner than 3 units, so an icon 18 px
 * high stays a shape at 1280x720 (12 px, a unit is half a pixel). icons.tsx draws them; the game's
 * weapon names pick them (ICON_OF_WEAPON), and a name the list does not know takes its type's shape.
 */

export interface Shape {
  /** Width on the 24-unit-high grid. */
  w: number;
  /**
   * The pieces, each one path filled with evenodd: they are painted over each other (their union),
   * and a subpath inside a piece is a hole in it (a keypad, an eye).
   */
  parts: string[];
}

const rect = (x: number, y: number, w: number, h: number) => `M${x} ${y}h${w}v${h}h${-w}z`;

export const SHAPES = {
  // Rifles
  ak: {
    w: 64,
    parts: [
      'M0 8L13 6V13L3 16H0Z',
      rect(13, 5, 27, 7),
      'M18 12H24L22 20H17Z',
      'M27 12H33L35 16L38 20L32 22L29 17Z',
      rect(40, 6, 10, 5),
      rect(50, 7, 13, 3),
      rect(57, 4, 3, 3),
    ],
  },
  m4: {
    w: 64,
    parts: [
      rect(0, 7, 10, 7),
      rect(10, 8, 4, 3),
      rect(14, 6, 26, 6),
      rect(16, 3, 20, 3),
      'M18 12H24L22 20H17Z',
      'M27 12H33L34 21H28Z',
      rect(40, 6, 12, 6),
      rect(52, 8, 11, 3),
      rect(55, 4, 3, 4),
    ],
  },
  m4s: {
    w: 72,
    parts: [
      rect(0, 7, 10, 7),
      rect(10, 8, 4, 3),
      rect(14, 6, 26, 6),
      rect(16, 3, 20, 3),
      'M18 12H24L22 20H17Z',
      'M27 12H33L34 21H28Z',
      rect(40, 6, 10, 6),
      rect(50, 6, 21, 6),
    ],
  },
  bullpup: {
    w: 58,
    parts: [
      'M0 10L3 8H31V15H3L0 13Z',
      rect(14, 3, 16, 4),
      rect(17, 7, 3, 1),
      rect(25, 7, 3, 1),
      'M31 12H36L34 20H30Z',
      'M17 15H23L24 21H18Z',
      rect(31, 8, 12, 5),
      rect(43, 9, 14, 3),
    ],
  },
  famas: {
    w: 60,
    parts: [
      'M0 10L3 8H34V15H3L0 13Z',
      rect(6, 3, 28, 3),
      rect(8, 6, 3, 2),
      rect(30, 6, 3, 2),
      'M34 12H39L37 20H33Z',
      'M18 15H24L25 21H19Z',
      rect(34, 8, 10, 5),
      rect(44, 9, 15, 3),
    ],
  },
  // Snipers
  awp: {
    w: 74,
    parts: [
      `M0 8L16 8V14L7 17H0Z${rect(4, 11, 5, 3)}`,
      rect(16, 8, 20, 6),
      rect(18, 2, 17, 4),
      rect(21, 6, 3, 2),
      rect(29, 6, 3, 2),
      'M22 14H27L25 21H21Z',
      rect(30, 14, 5, 4),
      rect(36, 9, 31, 3),
      rect(67, 8, 6, 5),
    ],
  },
  scout: {
    w: 68,
    parts: [
      'M0 9L14 9V14L5 16H0Z',
      rect(14, 9, 18, 5),
      rect(16, 3, 15, 4),
      rect(19, 7, 3, 2),
      rect(26, 7, 3, 2),
      'M19 14H24L22 21H18Z',
      rect(32, 10, 35, 3),
    ],
  },
  auto: {
    w: 70,
    parts: [
      'M0 7L14 8V14L5 17H0Z',
      rect(14, 7, 24, 7),
      rect(16, 2, 17, 4),
      rect(19, 6, 3, 1),
      rect(28, 6, 3, 1),
      'M19 14H24L22 21H18Z',
      'M28 14H35L35 21H28Z',
      rect(38, 8, 10, 5),
      rect(48, 9, 21, 3),
    ],
  },
  // Submachine guns
  smg: {
    w: 46,
    parts: [
      rect(0, 7, 8, 5),
      rect(8, 6, 24, 6),
      'M11 12H16L15 19H10Z',
      'M20 12H25L25 22H20Z',
      rect(32, 7, 6, 5),
      rect(38, 8, 7, 3),
    ],
  },
  mac10: {
    w: 36,
    parts: [rect(2, 5, 26, 7), rect(0, 6, 2, 3), 'M10 12H16L16 22H10Z', rect(28, 7, 7, 3)],
  },
  p90: {
    w: 46,
    parts: ['M0 10L5 6H38L41 9V13H30L28 18H23L22 13H14L12 18H6L2 14Z', rect(41, 8, 4, 3)],
  },
  // Shotguns
  shotgun: {
    w: 66,
    parts: [
      'M0 8L14 6V13L4 16H0Z',
      rect(14, 5, 14, 7),
      'M16 12H21L19 19H15Z',
      rect(28, 5, 37, 3),
      rect(28, 9, 30, 3),
      rect(36, 9, 12, 5),
    ],
  },
  mag7: {
    w: 46,
    parts: [
      rect(0, 6, 28, 6),
      'M8 12H13L12 19H7Z',
      'M17 12H23L23 22H17Z',
      rect(28, 6, 17, 3),
      rect(28, 9, 12, 5),
    ],
  },
  sawedoff: {
    w: 46,
    parts: ['M0 9L8 7H14V13H8L3 18H0Z', 'M12 12H16L15 18H11Z', rect(14, 6, 31, 3), rect(14, 9, 20, 4)],
  },
  // Machine guns
  mg: {
    w: 68,
    parts: [
      'M0 7H12V14L2 16H0Z',
      rect(12, 5, 26, 8),
      'M14 13H19L18 19H13Z',
      rect(21, 13, 12, 8),
      rect(38, 7, 10, 6),
      rect(48, 8, 19, 3),
      'M50 11H53L57 21H54Z',
    ],
  },
  // Pistols
  pistol: {
    w: 30,
    parts: [rect(2, 4, 27, 6), rect(2, 10, 18, 2), 'M3 11H11L10 22H2Z', 'M11 12H17V15L13 16Z'],
  },
  usps: {
    w: 44,
    parts: [
      rect(2, 4, 27, 6),
      rect(2, 10, 18, 2),
      'M3 11H11L10 22H2Z',
      'M11 12H17V15L13 16Z',
      rect(29, 4, 14, 6),
    ],
  },
  deagle: {
    w: 36,
    parts: [rect(1, 2, 34, 8), rect(1, 10, 20, 2), 'M2 11H12L11 22H1Z', 'M12 12H18V16L14 17Z'],
  },
  revolver: {
    w: 36,
    parts: ['M1 5H12V4H20V12H12V11H1Z', rect(20, 5, 15, 4), 'M3 11H11L10 22H1Z', 'M11 12H16V15L13 16Z'],
  },
  dualies: {
    w: 36,
    parts: [rect(8, 1, 27, 5), 'M9 6H16L15 14H8Z', rect(1, 8, 27, 6), rect(1, 14, 18, 2), 'M2 15H10L9 23H1Z'],
  },
  tec9: {
    w: 34,
    parts: [rect(1, 4, 32, 6), 'M6 10H12L11 20H5Z', 'M15 10H20L22 22H17Z'],
  },
  // Close range
  knife: {
    w: 40,
    parts: ['M15 8L33 6L40 10L33 13H15Z', rect(12, 5, 3, 11), 'M0 9H12V13L1 14Z'],
  },
  zeus: {
    w: 30,
    parts: ['M2 5H23L29 7V11L23 13H2Z', 'M4 12H11L10 22H3Z', 'M11 13H16V15L13 16Z'],
  },
  // Grenades, upright
  he: {
    w: 16,
    parts: ['M1 15A7 7 0 1 0 15 15A7 7 0 1 0 1 15Z', rect(5, 4, 6, 5), 'M11 4L15 6L14 13L11 11Z'],
  },
  flash: {
    w: 16,
    parts: [`M3 9H13V21L11 23H5L3 21Z${rect(6, 12, 4, 7)}`, rect(5, 5, 6, 4), 'M11 5L15 7L14 15L12 13Z'],
  },
  smoke: {
    w: 16,
    parts: [
      `M2 8H14V21L12 23H4L2 21Z${rect(4, 11, 3, 3)}${rect(9, 11, 3, 3)}${rect(4, 16, 3, 3)}${rect(9, 16, 3, 3)}`,
      rect(5, 4, 6, 4),
      'M11 4L15 6L14.5 12L12 10Z',
    ],
  },
  molotov: {
    w: 16,
    parts: [`M6 5H10V9L13 12V23H3V12L6 9Z${rect(5, 15, 6, 4)}`, 'M7 0L10 2L11 4H5L6 2Z'],
  },
  incendiary: {
    w: 16,
    parts: [
      'M2 8H14V21L12 23H4L2 21ZM8 11L11 15L10 19H6L5 15Z',
      rect(5, 4, 6, 4),
      'M11 4L15 6L14.5 12L12 10Z',
    ],
  },
  decoy: {
    w: 16,
    parts: [`M3 11H13V21L11 23H5L3 21Z${rect(5, 14, 6, 3)}`, rect(6, 7, 4, 4), rect(6.5, 1, 3, 6)],
  },
  grenade: {
    w: 16,
    parts: ['M3 9H13V21L11 23H5L3 21Z', rect(5, 5, 6, 4), 'M11 5L15 7L14 15L12 13Z'],
  },
  // Equipment
  c4: {
    w: 28,
    parts: [
      `${rect(1, 7, 26, 15)}${rect(4, 10, 9, 6)}${rect(16, 10, 3, 3)}${rect(21, 10, 3, 3)}${rect(16, 15, 3, 3)}${rect(21, 15, 3, 3)}`,
      'M6 7V3H9V7Z',
      'M19 7V2H22V7Z',
    ],
  },
  kit: {
    w: 24,
    parts: ['M8 1H16L15 9H9Z', 'M9 10H12L8 23H4Z', 'M12 10H15L20 23H16Z', rect(9, 8, 6, 4)],
  },
  armor: {
    w: 22,
    parts: ['M3 2H8L11 6L14 2H19L21 8L19 10V22H3V10L1 8Z'],
  },
  helmet: {
    w: 22,
    parts: ['M2 15A9 10 0 0 1 20 15V17H2Z', 'M2 17H8V21H2Z', rect(0, 15, 22, 3)],
  },
  // Markers
  skull: {
    w: 20,
    parts: [
      `M10 2C4.5 2 1 6 1 11C1 14 2.5 16 5 17V21H15V17C17.5 16 19 14 19 11C19 6 15.5 2 10 2Z${rect(4.5, 9.5, 4, 4)}${rect(11.5, 9.5, 4, 4)}${rect(8.5, 17, 3, 4)}`,
    ],
  },
  blast: {
    w: 24,
    parts: [
      'M12 0L14.5 7L21 3L17.5 10L24 12L17.5 14L21 21L14.5 17L12 24L9.5 17L3 21L6.5 14L0 12L6.5 10L3 3L9.5 7Z',
    ],
  },
  // The killfeed's marks: a head in a crosshair (headshot), a bullet through a wall (wallbang).
  headshot: {
    w: 24,
    parts: [
      'M12 5A7 7 0 1 0 12 19A7 7 0 1 0 12 5ZM12 8A4 4 0 1 1 12 16A4 4 0 1 1 12 8Z',
      `${rect(10.5, 0, 3, 6)}${rect(10.5, 18, 3, 6)}${rect(0, 10.5, 6, 3)}${rect(18, 10.5, 6, 3)}`,
      'M12 10A2 2 0 1 0 12 14A2 2 0 1 0 12 10Z',
    ],
  },
  wallbang: {
    w: 24,
    parts: [`${rect(9, 1, 6, 22)}`, `${rect(0, 10.5, 7, 3)}${rect(17, 10.5, 7, 3)}`],
  },
  // The game's other marks of a kill: a scope struck through (no scope), a cloud (through smoke),
  // an eye struck through (the killer was blind).
  noscope: {
    w: 24,
    parts: [
      'M12 1A11 11 0 1 0 12 23A11 11 0 1 0 12 1ZM12 4A8 8 0 1 1 12 20A8 8 0 1 1 12 4Z',
      `${rect(10.5, 7, 3, 10)}${rect(7, 10.5, 10, 3)}`,
      'M2.4 4.5L4.5 2.4L21.6 19.5L19.5 21.6Z',
    ],
  },
  thrusmoke: {
    w: 24,
    parts: [
      'M7 10A5 5 0 1 0 7 20A5 5 0 1 0 7 10Z',
      'M12 4A6.5 6.5 0 1 0 12 17A6.5 6.5 0 1 0 12 4Z',
      'M17 10A5 5 0 1 0 17 20A5 5 0 1 0 17 10Z',
    ],
  },
  blind: {
    w: 24,
    parts: [
      'M1 12C5 5 19 5 23 12C19 19 5 19 1 12ZM5 12C8 16 16 16 19 12C16 8 8 8 5 12Z',
      'M12 9A3 3 0 1 0 12 15A3 3 0 1 0 12 9Z',
      'M3.4 5.5L5.5 3.4L20.6 18.5L18.5 20.6Z',
    ],
  },
  // A player standing: the alive counters.
  person: {
    w: 16,
    parts: [
      'M8 1A4.5 4.5 0 1 0 8 10A4.5 4.5 0 1 0 8 1Z',
      'M1 23V17C1 13.5 3.5 11.5 8 11.5C12.5 11.5 15 13.5 15 17V23Z',
    ],
  },
  clock: {
    w: 24,
    parts: [
      'M1 12A11 11 0 1 0 23 12A11 11 0 1 0 1 12ZM4 12A8 8 0 1 0 20 12A8 8 0 1 0 4 12Z',
      'M11 5H13V12H17V14H11Z',
    ],
  },
} satisfies Record<string, Shape>;

export type ShapeName = keyof typeof SHAPES;

/** The game's weapon names (without `weapon_`) and the shape each one takes. */
export const ICON_OF_WEAPON: Record<string, ShapeName> = {
  ak47: 'ak',
  galilar: 'ak',
  m4a1: 'm4',
  m4a1_silencer: 'm4s',
  famas: 'famas',
  aug: 'bullpup',
  sg556: 'bullpup',
  awp: 'awp',
  ssg08: 'scout',
  scar20: 'auto',
  g3sg1: 'auto',
  mac10: 'mac10',
  mp9: 'smg',
  mp7: 'smg',
  mp5sd: 'smg',
  ump45: 'smg',
  bizon: 'smg',
  p90: 'p90',
  nova: 'shotgun',
  xm1014: 'shotgun',
  mag7: 'mag7',
  sawedoff: 'sawedoff',
  negev: 'mg',
  m249: 'mg',
  glock: 'pistol',
  hkp2000: 'pistol',
  p250: 'pistol',
  fiveseven: 'pistol',
  cz75a: 'pistol',
  usp_silencer: 'usps',
  deagle: 'deagle',
  revolver: 'revolver',
  elite: 'dualies',
  tec9: 'tec9',
  taser: 'zeus',
  knife: 'knife',
  hegrenade: 'he',
  flashbang: 'flash',
  smokegrenade: 'smoke',
  molotov: 'molotov',
  incgrenade: 'incendiary',
  decoy: 'decoy',
  c4: 'c4',
};

/** The shape of a type the names above do not cover (a new weapon, a knife's skin). */
const ICON_OF_TYPE: Record<string, ShapeName> = {
  Rifle: 'm4',
  SniperRifle: 'awp',
  'Submachine Gun': 'smg',
  Shotgun: 'shotgun',
  'Machine Gun': 'mg',
  Pistol: 'pistol',
  Knife: 'knife',
  Grenade: 'grenade',
  C4: 'c4',
};

export function shapeOfWeapon(name: string, type: string): ShapeName {
  const short = name.replace(/^weapon_/, '');
  if (short.startsWith('knife') || short.startsWith('bayonet')) return 'knife';
  return ICON_OF_WEAPON[short] ?? ICON_OF_TYPE[type] ?? 'pistol';
}
