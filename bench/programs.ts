// Generated programs for the front-end benchmarks: realistic API glue,
// repeated with fresh names until the program has the lines asked for.

const TEMPLATE = (i: number) => `-- Module part ${i}: fetch, decode and report.
type Forecast${i} is record
  temperature: Float
  wind_speed: Int from json "windspeed"
  readings: List<Float>
end

type Problem${i} is variant
  Network(error: HttpError)
  Decoding(error: JsonError)
  Empty
end

public function fetch_${i}(city: Text, retries: Int = 3) returns Forecast${i} or fails with Problem${i}
  purpose: Fetch the forecast for a city.
  needs network.http("api.example.com")
  let response be http.get("https://api.example.com/v1/{city}?n={retries}") otherwise fail
  let forecast be json.decode(response.body, as: Forecast${i}) otherwise fail
  if forecast.readings.count() is 0
    fail with Problem${i}.Empty
  end
  return forecast
end

function summarise_${i}(items: List<Forecast${i}>, limit: Int) returns Text
  var total be 0.0
  for each item in items
    if item.temperature < -50.0 then skip
    set total to total + item.temperature * 1.5
  end
  let warm be
    from item in items
    where item.temperature > 20.0 and item.wind_speed < 30
    sort by item.temperature descending
    take limit
    select item.temperature
  let label be match warm.count()
    when 0 then "none"
    when 1 then "one"
    when _ then "many"
  end
  return "{label}: {total} over {items.count()} ({warm})"
end

`;

/** Copies of a template, numbered from 0, until they make at least `lines` lines. */
function repeatTemplate(template: (i: number) => string, lines: number): string {
  let out = "";
  let count = 0;
  for (let i = 0; count < lines; i++) {
    const part = template(i);
    out += part;
    count += part.split("\n").length - 1;
  }
  return out;
}

export function generateRenyi(lines: number): string {
  return repeatTemplate(TEMPLATE, lines);
}

const TS_TEMPLATE = (i: number) => `// Module part ${i}: fetch, decode and report.
interface Forecast${i} {
  temperature: number;
  wind_speed: number;
  readings: number[];
}

type Problem${i} =
  | { kind: "Network"; error: Error }
  | { kind: "Decoding"; error: Error }
  | { kind: "Empty" };

export async function fetch_${i}(city: string, retries: number = 3): Promise<Forecast${i}> {
  // Fetch the forecast for a city.
  const response = await http.get(\`https://api.example.com/v1/\${city}?n=\${retries}\`);
  const forecast = decode<Forecast${i}>(response.body);
  if (forecast.readings.length === 0) {
    throw { kind: "Empty" } as Problem${i};
  }
  return forecast;
}

function summarise_${i}(items: Forecast${i}[], limit: number): string {
  let total = 0.0;
  for (const item of items) {
    if (item.temperature < -50.0) continue;
    total = total + item.temperature * 1.5;
  }
  const warm = items
    .filter((item) => item.temperature > 20.0 && item.wind_speed < 30)
    .sort((a, b) => b.temperature - a.temperature)
    .slice(0, limit)
    .map((item) => item.temperature);
  const label = (() => {
    switch (warm.length) {
      case 0: return "none";
      case 1: return "one";
      default: return "many";
    }
  })();
  return \`\${label}: \${total} over \${items.length} (\${warm})\`;
}

`;

/** The same program in TypeScript, line for line as near as the languages allow. */
export function generateTypeScript(lines: number): string {
  return repeatTemplate(TS_TEMPLATE, lines);
}
