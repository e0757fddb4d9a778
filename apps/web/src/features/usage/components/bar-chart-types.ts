// A series of the usage page's bar chart (the page builds them, the chart draws them).
export interface TBarSeries {
  label: string;
  values: number[];
  color: string;
}
