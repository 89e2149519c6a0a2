import { Text, Transform, type TextProps } from 'ink';
import type { ReactNode } from 'react';

/**
 * Leading spaces of a line that Ink's wrapping started (it breaks lines keeping the space at the
 * break, so a wrapped line could begin " is deployed"). Colour codes before them are kept.
 */
export function dropWrapSpace(line: string, index: number): string {
  return index === 0 ? line : line.replace(/^((?:\u001B\[[0-9;]*m)*) +/, '$1');
}

/**
 * A paragraph: text wrapped to the width it is given, with no wrapped line starting with a space.
 * One paragraph per line of source text: a line break inside it would lose the next line's indent.
 */
export function Para({ children, ...props }: Omit<TextProps, 'wrap'> & { children?: ReactNode }) {
  return (
    <Transform transform={dropWrapSpace}>
      <Text {...props} wrap="wrap">
        {children}
      </Text>
    </Transform>
  );
}
