// The chart's props, apart from both the chart and its lazily loaded canvas so neither imports the
// other.
export interface TBarSeries {
  label: string;
  values: number[];
  color: string;
}

export interface TBarChartProps {
  labels: string[];
  series: TBarSeries[];
  dark: boolean;
  locale: string;
}
