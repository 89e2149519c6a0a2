import { Box, measureElement, type DOMElement } from 'ink';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A window of `height` rows over content of any height: the content is laid out whole, shifted up
 * by `offset` and clipped. Its measured height is reported after each render, so the keys that
 * scroll it know where the bottom is (content a screen draws cannot be counted beforehand).
 */
export function ScrollView({ height, offset, onMeasure, children }: { height: number; offset: number; onMeasure: (rows: number) => void; children: ReactNode }) {
  const ref = useRef<DOMElement>(null);
  const last = useRef(-1);
  useEffect(() => {
    if (!ref.current) return;
    const rows = measureElement(ref.current).height;
    if (rows !== last.current) {
      last.current = rows;
      onMeasure(rows);
    }
  });
  return (
    <Box height={Math.max(0, height)} overflow="hidden" flexDirection="column" flexShrink={0}>
      <Box ref={ref} flexDirection="column" flexShrink={0} marginTop={-Math.max(0, offset)}>
        {children}
      </Box>
    </Box>
  );
}
