import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { BarChart, niceStep } from './bar-chart';

describe('BarChart', () => {
  it('picks ticks of 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(4)).toBe(1);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(37)).toBe(10);
    expect(niceStep(1023)).toBe(500);
  });

  it('stacks each day by series, scaled to the top tick, with every value in its table', () => {
    render(
      <BarChart
        labels={['11-01', '11-02']}
        series={[
          { label: '2xx', values: [30, 5], color: '#16a34a' },
          { label: '5xx', values: [10, 0], color: '#dc2626' },
        ]}
        caption="Calls per day"
        firstColumn="Day"
        locale="en"
      />,
    );
    const days = [...screen.getByTestId('bar-chart-bars').children] as HTMLElement[];
    expect(days).toHaveLength(2);
    // Top tick 40 (steps of 10): 30 of 40 is 75 %, 10 is 25 %; a zero draws nothing.
    expect([...days[0]!.children].map((bar) => (bar as HTMLElement).style.height)).toEqual(['75%', '25%']);
    expect([...days[1]!.children].map((bar) => (bar as HTMLElement).style.height)).toEqual(['12.5%']);
    expect(days[0]!.title).toBe('11-01\n2xx: 30\n5xx: 10');
    const table = screen.getByRole('table', { name: 'Calls per day' });
    expect(table).toHaveTextContent('11-02' + '5' + '0');
  });
});
