import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { mobile } from '../theme/theme';

/** A column of a VirtualList: its header, its width and how a row shows in it. */
export interface VirtualListColumn<Row> {
  header: string;
  /** A CSS grid track: 2fr, 120px, ... */
  width: string;
  cell: (row: Row) => ReactNode;
  /** Left out on a phone. */
  optional?: boolean;
}

export interface VirtualListProps<Row> {
  rows: readonly Row[];
  columns: readonly VirtualListColumn<Row>[];
  rowKey: (row: Row) => string;
  rowLink: (row: Row) => string;
  /** Asked when the last rendered rows come near the end of what is loaded. */
  onNearEnd: () => void;
  empty: ReactNode;
  label: string;
}

const rowHeight = 48;
/** How many rows before the end of the loaded rows the next page is asked for. */
const nearEndRows = 40;

/**
 * A table of linked rows (devices, issues) that renders only the rows in view
 * (@tanstack/react-virtual), so a list of 10,000 rows scrolls as lightly as one of 50, and asks
 * for the next page as the end of the loaded rows comes near.
 */
export function VirtualList<Row>({ rows, columns, rowKey, rowLink, onNearEnd, empty, label }: VirtualListProps<Row>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length === 0 ? -1 : (items[items.length - 1]?.index ?? -1);
  const nearEnd = useRef(onNearEnd);
  nearEnd.current = onNearEnd;
  useEffect(() => {
    if (rows.length > 0 && lastIndex >= rows.length - nearEndRows) {
      nearEnd.current();
    }
  }, [lastIndex, rows.length]);

  const template = columns.map((column) => column.width).join(' ');
  const phoneTemplate = columns
    .filter((column) => column.optional !== true)
    .map((column) => column.width)
    .join(' ');
  return (
    <Table role="table" aria-label={label} aria-rowcount={rows.length}>
      <HeaderRow role="row" $template={template} $phoneTemplate={phoneTemplate}>
        {columns.map((column) => (
          <Cell role="columnheader" key={column.header} $optional={column.optional === true}>
            {column.header}
          </Cell>
        ))}
      </HeaderRow>
      <Scroller ref={scroller} data-testid="virtual-list-scroller">
        {rows.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) {
                return null;
              }
              return (
                <Row
                  key={rowKey(row)}
                  to={rowLink(row)}
                  role="row"
                  aria-rowindex={item.index + 1}
                  $template={template}
                  $phoneTemplate={phoneTemplate}
                  style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                >
                  {columns.map((column) => (
                    <Cell role="cell" key={column.header} $optional={column.optional === true}>
                      {column.cell(row)}
                    </Cell>
                  ))}
                </Row>
              );
            })}
          </div>
        )}
      </Scroller>
    </Table>
  );
}

const Table = styled.div`
  display: flex;
  flex-direction: column;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  background: ${({ theme }) => theme.colors.surface};
`;

const grid = (template: string, phoneTemplate: string) => `
  display: grid;
  grid-template-columns: ${template};
  align-items: center;
  gap: 12px;
  padding: 0 16px;
  ${mobile} {
    grid-template-columns: ${phoneTemplate};
  }
`;

const HeaderRow = styled.div<{ $template: string; $phoneTemplate: string }>`
  ${({ $template, $phoneTemplate }) => grid($template, $phoneTemplate)}
  min-height: 44px;
  font-weight: ${({ theme }) => theme.fontWeights.semibold};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Scroller = styled.div`
  height: calc(100vh - 260px);
  min-height: 320px;
  overflow-y: auto;
`;

const Row = styled(Link)<{ $template: string; $phoneTemplate: string }>`
  ${({ $template, $phoneTemplate }) => grid($template, $phoneTemplate)}
  position: absolute;
  top: 0;
  left: 0;
  width: 100%;
  box-sizing: border-box;
  color: inherit;
  text-decoration: none;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  &:hover,
  &:focus-visible {
    background: ${({ theme }) => theme.colors.background};
  }
`;

const Cell = styled.span<{ $optional: boolean }>`
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  ${mobile} {
    display: ${({ $optional }) => ($optional ? 'none' : 'block')};
  }
`;

const Empty = styled.p`
  padding: 24px 16px;
  color: ${({ theme }) => theme.colors.textMuted};
`;
