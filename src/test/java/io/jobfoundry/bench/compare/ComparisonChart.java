package io.jobfoundry.bench.compare;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * The comparison as one PNG: throughput on the left (longer is better), latency on the right
 * (shorter is better, p50 and p99 on a log scale, since the systems differ by orders of
 * magnitude). Each bar carries its figure, so nobody has to read values off an axis.
 */
final class ComparisonChart {

    private static final Color JOBFOUNDRY = new Color(0x1f77b4);
    private static final Color PEER = new Color(0x9e9e9e);
    private static final Color P50 = new Color(0x2ca02c);
    private static final Color P99 = new Color(0xd62728);

    private ComparisonChart() {
    }

    static void write(Results results, String subtitle, Path png) throws IOException {
        List<String> labels = results.runs().stream().map(RunResult::label).toList();
        BitmapEncoder.saveBitmap(List.of(throughput(results, labels, subtitle), latency(results, labels)), 1, 2,
                png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static CategoryChart throughput(Results results, List<String> labels, String subtitle) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(560).title("Jobs per second (higher is better)")
                .xAxisTitle(subtitle).yAxisTitle("jobs/s").build();
        style(chart);
        chart.getStyler().setDecimalPattern("#,##0");
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setSeriesColors(new Color[] {JOBFOUNDRY, PEER});
        // Two overlapped series over the same categories, each empty where the other has its bar:
        // XChart's way to colour the bars of one series differently.
        chart.addSeries("Jobfoundry", labels, bars(results, true));
        chart.addSeries("peers", labels, bars(results, false));
        return chart;
    }

    private static List<Number> bars(Results results, boolean jobfoundry) {
        List<Number> bars = new ArrayList<>();
        for (RunResult run : results.runs()) {
            bars.add(run.system().startsWith("jobfoundry") == jobfoundry ? run.jobsPerSecond() : null);
        }
        return bars;
    }

    private static CategoryChart latency(Results results, List<String> labels) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(560)
                .title("Creation → receipt latency (lower is better)").xAxisTitle("p50 and p99, log scale")
                .yAxisTitle("ms").build();
        style(chart);
        chart.getStyler().setDecimalPattern("#,##0.#");
        chart.getStyler().setYAxisLogarithmic(true);
        // XChart starts bars at zero unless told otherwise, which a log axis cannot show.
        double smallest = results.runs().stream().mapToDouble(r -> r.receiptLatency().p50()).min().orElse(1);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
        chart.getStyler().setSeriesColors(new Color[] {P50, P99});
        chart.addSeries("p50", labels, results.runs().stream().map(r -> (Number) r.receiptLatency().p50()).toList());
        chart.addSeries("p99", labels, results.runs().stream().map(r -> (Number) r.receiptLatency().p99()).toList());
        return chart;
    }

    private static void style(CategoryChart chart) {
        CategoryStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLabelsVisible(true);
        styler.setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    }
}
