// Point markers for values that theory predicts (hollow) and that a run
// measured (filled), shared by the plots and their legends.

export type MarkerShape = 'diamond' | 'circle' | 'dot';

/** SVG path of `shape` centred on (0, 0) with half-size `r`. */
export function markerPath(shape: MarkerShape, r: number): string {
  if (shape === 'diamond') return `M0,${-r}L${r},0L0,${r}L${-r},0Z`;
  return `M${-r},0A${r},${r} 0 1,0 ${r},0A${r},${r} 0 1,0 ${-r},0Z`;
}

interface MarkerProps {
  shape: MarkerShape;
  x: number;
  y: number;
  r: number;
  color: string;
}

/** Theory is hollow, a measurement ('dot') is filled. */
export function Marker({ shape, x, y, r, color }: MarkerProps) {
  const filled = shape === 'dot';
  return (
    <path
      d={markerPath(shape, r)}
      transform={`translate(${x},${y})`}
      fill={filled ? color : 'white'}
      stroke={filled ? 'white' : color}
      strokeWidth={filled ? 1.5 : 2}
    />
  );
}
