//! What a batch scheduler's environment says about this task: which shard it is (`--shard
//! auto`: a Slurm array task, or a Kubernetes Indexed Job pod) and how many threads it was given
//! (`SLURM_CPUS_PER_TASK`).
//!
//! The names of the variables read are the `SLURM_*` and [`K8S_INDEX`] constants. Nothing here
//! reads the process environment itself: every function takes the lookup as an argument (the
//! CLI passes `std::env::var`, tests a map). [`super::args`] calls [`Shard::from_env`] for
//! `--shard auto`; the CLI calls [`scheduler_threads`] for its default `-j`.
//!
//! Invariant: a missing or contradictory environment is an error, never a default: a task
//! that silently ran shard 0 of 1 would duplicate the whole corpus.

use super::{Shard, ShardError};

/// Slurm: the task's index in its job array.
pub const SLURM_TASK_ID: &str = "SLURM_ARRAY_TASK_ID";
/// Slurm: the number of tasks in the job array.
pub const SLURM_TASK_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// Slurm: the smallest task index of the array (`--array=1-4` starts at 1).
pub const SLURM_TASK_MIN: &str = "SLURM_ARRAY_TASK_MIN";
/// Slurm: the largest task index of the array.
pub const SLURM_TASK_MAX: &str = "SLURM_ARRAY_TASK_MAX";
/// Slurm: the step between task indices (`--array=0-8:2`).
pub const SLURM_TASK_STEP: &str = "SLURM_ARRAY_TASK_STEP";
/// Slurm: the CPUs allotted to each task (the default thread count).
pub const SLURM_CPUS: &str = "SLURM_CPUS_PER_TASK";
/// Kubernetes Indexed Jobs: the pod's completion index (the shard count comes from
/// `--shard-count`, Kubernetes does not export it).
pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";

impl Shard {
    /// The shard named by the scheduler's environment (`--shard auto`): a Slurm array task, or a
    /// Kubernetes Indexed Job pod with `shard_count` given. `env` reads a variable (tests pass a
    /// map; the CLI passes `std::env::var`). Anything missing or contradictory is an error: a
    /// task that silently ran shard 0 of 1 would duplicate the whole corpus.
    pub fn from_env(
        env: impl Fn(&str) -> Option<String>,
        shard_count: Option<usize>,
    ) -> Result<Shard, ShardError> {
        let number =
            |name: &str| -> Result<Option<usize>, ShardError> {
                match env(name) {
                    None => Ok(None),
                    Some(v) => v.trim().parse().map(Some).map_err(|_| {
                        ShardError::Inconsistent(format!("{name}={v:?} is not a number"))
                    }),
                }
            };
        let inconsistent = |m: String| Err(ShardError::Inconsistent(m));
        if let Some(id) = number(SLURM_TASK_ID)? {
            let Some(count) = number(SLURM_TASK_COUNT)? else {
                return inconsistent(format!(
                    "{SLURM_TASK_ID} is set but {SLURM_TASK_COUNT} is not"
                ));
            };
            let min = number(SLURM_TASK_MIN)?.unwrap_or(0);
            if let Some(step) = number(SLURM_TASK_STEP)?
                && step != 1
            {
                return inconsistent(format!(
                    "{SLURM_TASK_STEP}={step}: shards need consecutive task ids (--array=0-{})",
                    count.saturating_sub(1)
                ));
            }
            if let Some(max) = number(SLURM_TASK_MAX)?
                && max.checked_sub(min).map(|d| d + 1) != Some(count)
            {
                return inconsistent(format!(
                    "{SLURM_TASK_MIN}={min}, {SLURM_TASK_MAX}={max} and {SLURM_TASK_COUNT}={count} do not describe consecutive task ids"
                ));
            }
            if let Some(n) = shard_count
                && n != count
            {
                return inconsistent(format!(
                    "--shard-count {n} contradicts {SLURM_TASK_COUNT}={count}"
                ));
            }
            let index = id.checked_sub(min).filter(|&k| k < count);
            return match index {
                Some(index) => Ok(Shard { index, count }),
                None => inconsistent(format!(
                    "{SLURM_TASK_ID}={id} is outside {min}..{min}+{SLURM_TASK_COUNT} ({count})"
                )),
            };
        }
        if let Some(index) = number(K8S_INDEX)? {
            let Some(count) = shard_count else {
                return inconsistent(format!(
                    "{K8S_INDEX} is set: give the number of shards (the Job's completions) with --shard-count"
                ));
            };
            if index >= count {
                return inconsistent(format!(
                    "{K8S_INDEX}={index} is not below --shard-count {count}"
                ));
            }
            return Ok(Shard { index, count });
        }
        Err(ShardError::NoEnvironment)
    }
}

/// The threads a scheduler gave this task (`SLURM_CPUS_PER_TASK`), if any.
pub fn scheduler_threads(env: impl Fn(&str) -> Option<String>) -> Option<usize> {
    env(SLURM_CPUS)?.trim().parse().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }
    #[test]
    fn slurm_array_with_offset() {
        // --array=1-4: ids 1..=4 map to shards 0..=3.
        let vars = [
            (SLURM_TASK_ID, "3"),
            (SLURM_TASK_COUNT, "4"),
            (SLURM_TASK_MIN, "1"),
            (SLURM_TASK_MAX, "4"),
        ];
        assert_eq!(
            Shard::from_env(env(&vars), None).unwrap(),
            Shard { index: 2, count: 4 }
        );
        assert_eq!(
            Shard::from_env(env(&vars), Some(4)).unwrap(),
            Shard { index: 2, count: 4 }
        );
        assert!(Shard::from_env(env(&vars), Some(5)).is_err());
    }

    #[test]
    fn slurm_inconsistencies_fail() {
        let cases: &[&[(&str, &str)]] = &[
            &[(SLURM_TASK_ID, "1")],
            &[(SLURM_TASK_ID, "4"), (SLURM_TASK_COUNT, "4")],
            &[(SLURM_TASK_ID, "x"), (SLURM_TASK_COUNT, "4")],
            &[
                (SLURM_TASK_ID, "2"),
                (SLURM_TASK_COUNT, "4"),
                (SLURM_TASK_STEP, "2"),
            ],
            &[
                (SLURM_TASK_ID, "2"),
                (SLURM_TASK_COUNT, "4"),
                (SLURM_TASK_MIN, "0"),
                (SLURM_TASK_MAX, "6"),
            ],
            &[],
        ];
        for vars in cases {
            assert!(Shard::from_env(env(vars), None).is_err(), "{vars:?}");
        }
    }

    #[test]
    fn kubernetes_needs_shard_count() {
        let vars = [(K8S_INDEX, "2")];
        assert!(Shard::from_env(env(&vars), None).is_err());
        assert!(Shard::from_env(env(&vars), Some(2)).is_err());
        assert_eq!(
            Shard::from_env(env(&vars), Some(3)).unwrap(),
            Shard { index: 2, count: 3 }
        );
    }

    #[test]
    fn cpus_per_task() {
        assert_eq!(scheduler_threads(env(&[(SLURM_CPUS, "8")])), Some(8));
        assert_eq!(scheduler_threads(env(&[(SLURM_CPUS, "0")])), None);
        assert_eq!(scheduler_threads(env(&[])), None);
    }
}
