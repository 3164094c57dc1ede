//! The integration tests: one crate, so one test binary to build and link (ripgrep's
//! layout). [`util`] holds what the tests share: the one way to run the binary, the
//! reference searches, the random generator and the published tables; every other module
//! is one subject.

mod util;

mod atlas;
mod cache;
mod charts;
mod checkpoints;
mod citation;
mod class_labels;
mod classes;
mod cli;
mod cluster;
mod committed_reports;
mod constraints;
mod definition_search;
mod differential;
mod disk;
mod disk_shared;
mod flip_k;
mod folders;
mod goal;
mod hardening;
mod identity;
mod kpuzzle;
mod lights_out;
mod mod3;
mod oeis;
mod parse;
mod perm;
mod processes;
mod ranks;
mod rules;
mod sample;
mod solve;
mod sparse;
mod split_pdb;
mod summary;
mod symmetry;
mod tables;
mod weighted;
