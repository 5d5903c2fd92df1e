//! Ordo's rating method, written independently of the arena's statistics.

use std::collections::BTreeMap;

/// Ordo's rating method: the logistic (Bradley-Terry) maximum-likelihood ratings of the
/// players of `games` (white, black, white's score), centred on 0, by the minorization-
/// maximization iteration γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j).
pub fn ordo_ratings(games: &[(String, String, f64)]) -> BTreeMap<String, f64> {
    let mut names: Vec<String> = games
        .iter()
        .flat_map(|g| [g.0.clone(), g.1.clone()])
        .collect();
    names.sort();
    names.dedup();
    let index = |name: &str| names.iter().position(|n| n == name).unwrap();
    let n = names.len();
    let mut points = vec![0.0; n];
    let mut meetings = vec![vec![0.0; n]; n];
    for (white, black, score) in games {
        let (w, b) = (index(white), index(black));
        points[w] += score;
        points[b] += 1.0 - score;
        meetings[w][b] += 1.0;
        meetings[b][w] += 1.0;
    }
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| meetings[i][j] / (gamma[i] + gamma[j]))
                    .sum();
                points[i] / denominator
            })
            .collect();
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        let next: Vec<f64> = next.iter().map(|g| (g.ln() - mean_log).exp()).collect();
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    names
        .into_iter()
        .zip(gamma)
        .map(|(name, g)| (name, 400.0 * g.log10()))
        .collect()
}
